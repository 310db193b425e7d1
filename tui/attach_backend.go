package tui

import "fmt"

// Attachments is how the input bar attaches files and the chat opens them
// (docs/design.md §8 "Attachments", spec «添付は保存したファイルのパスで届く»).
// A file is only checked when it is picked; it is copied under the topic
// when the post is sent (SaveAttachment, once per chip and topic), and
// the post's body then ends in the block of the copies' paths
// (room.AttachmentBlock).
type Attachments interface {
	// AttachmentsDir is the absolute folder every topic's attachments live
	// under (<data>/logs/main/attachments). The chat draws a post's
	// attachment block as chips only when each path in it names a file one
	// level below a topic folder there.
	AttachmentsDir() string
	// ListDir lists the folder dir (as typed: "~" is the home, a relative
	// path is taken from Pullcept's working directory) for path completion:
	// at most MaxDirEntries entries, sorted by name; more is true when
	// there were more.
	ListDir(dir string) (entries []DirEntry, more bool, err error)
	// CheckAttachment checks the file at path (as typed) can be attached.
	// A refusal is an *AttachmentError.
	CheckAttachment(path string) (AttachmentFile, error)
	// DroppedFiles reads a paste as the paths a terminal's drag-and-drop
	// writes (quoted or escaped as a shell would read them, or file://
	// URLs; one or more). ok is false when any part is not an existing
	// file: the paste is text. Files that cannot be attached come back as
	// refused (*AttachmentError), the others as files.
	DroppedFiles(paste string) (files []AttachmentFile, refused []error, ok bool)
	// SaveAttachment copies the file at path (an AttachmentFile's Path)
	// under topicID's attachments folder and returns the copy's absolute
	// path. A file that vanished, is no longer a file or grew past the cap
	// since it was picked is an *AttachmentError.
	SaveAttachment(topicID, path string) (saved string, err error)
	// OpenAttachment opens a file of the attachments folder with the
	// system's opener (xdg-open, open, the Windows shell), started without
	// a shell. A path that does not resolve into the attachments folder,
	// or a file the system would run rather than open, is an
	// *AttachmentError and nothing is started. The UI calls it only on the
	// human's action (a key or a click on the chip).
	OpenAttachment(path string) error
}

// MaxDirEntries bounds a ListDir answer: enough for any folder a person
// types a path into, and a folder of a million files still answers at
// once.
const MaxDirEntries = 2000

// DirEntry is one entry of a listed folder; Dir is true for a folder (or a
// link to one).
type DirEntry struct {
	Name string
	Dir  bool
}

// AttachmentFile is a picked file: its absolute path, the name it will be
// saved under (the spec's name rules applied; "(2)" numbering comes at
// save time) and its size in bytes when it was picked.
type AttachmentFile struct {
	Path string
	Name string
	Size int64
}

// AttachmentReason says why a file cannot be attached or opened.
type AttachmentReason int

// Attachment refusals.
const (
	// AttachmentUnreadable: the file cannot be read (Detail says why).
	AttachmentUnreadable AttachmentReason = iota
	// AttachmentGone: nothing is at the path (any more).
	AttachmentGone
	// AttachmentNotFile: a folder, device, FIFO or socket.
	AttachmentNotFile
	// AttachmentTooLarge: over Limit bytes (Size says how many).
	AttachmentTooLarge
	// AttachmentOutside: OpenAttachment was given a path that does not
	// resolve to a file of the attachments folder.
	AttachmentOutside
	// AttachmentRunnable: the system would run the file, not open it.
	AttachmentRunnable
)

// AttachmentError is a refused attachment (plain values: it could cross a
// socket). Path is the file as given; Size and Limit are bytes.
type AttachmentError struct {
	Path   string
	Reason AttachmentReason
	Size   int64
	Limit  int64
	Detail string
}

func (e *AttachmentError) Error() string {
	switch e.Reason {
	case AttachmentGone:
		return fmt.Sprintf("attachment %s: the file is gone", e.Path)
	case AttachmentNotFile:
		return fmt.Sprintf("attachment %s: not a file", e.Path)
	case AttachmentTooLarge:
		return fmt.Sprintf("attachment %s: %d bytes, the limit is %d", e.Path, e.Size, e.Limit)
	case AttachmentOutside:
		return fmt.Sprintf("attachment %s: not in the attachments folder", e.Path)
	case AttachmentRunnable:
		return fmt.Sprintf("attachment %s: the system would run it, not open it", e.Path)
	}
	return fmt.Sprintf("attachment %s: %s", e.Path, e.Detail)
}
