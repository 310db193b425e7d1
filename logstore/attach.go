package logstore

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pullcept/pullcept/room/blank"
	"github.com/pullcept/pullcept/room/textcut"
)

// Attachment name limits (spec «添付は保存したファイルのパスで届く»).
const (
	// attachmentNameRunes: names are cut to 80 characters, extension kept,
	// so a CLI bound by Windows' 260-character paths can still open them.
	attachmentNameRunes = 80
	// attachmentNameBytes keeps a cut name under the 255-byte name limit of
	// ext4/APFS even when every character takes 4 bytes in UTF-8.
	attachmentNameBytes = 240
	// maxNameBytes is the file system's own limit; AttachmentPath refuses more.
	maxNameBytes = 255
	// maxAttachmentCopies bounds the "name (n).ext" search of SaveAttachment.
	maxAttachmentCopies = 10000
)

// Attachment block labels (docs/design.md §8 "Attachments"): the line
// before the paths of a post's attachments, in English or Japanese. The
// block itself is room's (room.AttachmentBlock); the store names a topic
// whose first post is attachments only by its files (TopicName).
const (
	AttachmentsLabel   = "Attachments:"
	AttachmentsLabelJa = "添付:"
)

// windowsForbidden are the characters Windows refuses in a file name; ':'
// also makes drive letters ("C:") and alternate data streams ("a:b").
const windowsForbidden = `<>:"/\|?*`

// shellSyntax are the characters, beyond windowsForbidden, a POSIX shell
// or PowerShell reads as syntax when a model pastes an attachment's path
// into a command: substitution ($, `), separators (; &), quotes, history
// (!) and parentheses (a PowerShell word starting with "(" is run as an
// expression; zsh reads "(e:…:)" after a word as a glob qualifier that
// runs its text). Spaces stay; the numbering's " (2)" is added after and
// holds digits only.
const shellSyntax = "$`;&'!()"

// AttachmentPath returns the absolute path of attachment name in topicID's
// folder, <data>/logs/main/attachments/<topic>/<name> (docs/design.md §8, spec
// «添付»). It refuses, with ErrBadAttachmentName, every name that could leave
// that folder or that Windows would store under another name: "", "." and
// "..", separators (/ and \), ':' (drive letters, streams), absolute and UNC
// forms (\\?\…), NUL and other control characters, <>"|?*, a trailing '.'
// or space, Windows device names (CON, nul.txt, COM1 …), invalid UTF-8, and
// names over 255 bytes. It refuses with ErrAttachmentLink when a symbolic
// link, junction or other non-regular entry sits at the target or in place of
// the attachments or topic folder. Nothing is created.
func (s *Store) AttachmentPath(topicID, name string) (string, error) {
	if err := checkTopicID(topicID); err != nil {
		return "", fmt.Errorf("attachment path: %w", err)
	}
	if err := checkAttachmentName(name); err != nil {
		return "", fmt.Errorf("attachment path in topic %s: %w", topicID, err)
	}
	dir, exists, err := s.checkedAttachmentDir(topicID)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, name)
	if !exists {
		return p, nil // nothing below can exist either
	}
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, nil
	case err != nil:
		return "", fmt.Errorf("attachment path in topic %s: %w", topicID, err)
	case fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0:
		return "", fmt.Errorf("attachment path in topic %s: %w: %q", topicID, ErrAttachmentLink, name)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("attachment path in topic %s: %w: %q exists and is not a file", topicID, ErrBadAttachmentName, name)
	}
	return p, nil
}

// checkedAttachmentDir returns topicID's attachments folder and whether it
// exists; a link, junction or file in place of it or of the attachments
// folder is refused with ErrAttachmentLink.
func (s *Store) checkedAttachmentDir(topicID string) (dir string, exists bool, err error) {
	root := s.attachmentRoot()
	dir = s.attachmentDir(topicID)
	for _, d := range []string{root, dir} {
		fi, err := os.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			return dir, false, nil
		}
		if err != nil {
			return "", false, fmt.Errorf("attachment path in topic %s: %w", topicID, err)
		}
		if !fi.IsDir() || fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
			return "", false, fmt.Errorf("attachment path in topic %s: %w: %s is not a plain directory", topicID, ErrAttachmentLink, d)
		}
	}
	return dir, true, nil
}

// createAttachment creates name in topicID's attachments folder (making
// the folder when missing) only when nothing of that name is there: a
// link, FIFO or folder planted at the name is a taken name like a file
// (O_EXCL never follows a link), so the caller tries its next name rather
// than failing (docs/design.md §8 "Long posts", "Attachments"). A taken
// name is fs.ErrExist.
func (s *Store) createAttachment(topicID, name string) (*os.File, string, error) {
	if err := checkTopicID(topicID); err != nil {
		return nil, "", fmt.Errorf("attachment path: %w", err)
	}
	if err := checkAttachmentName(name); err != nil {
		return nil, "", fmt.Errorf("attachment path in topic %s: %w", topicID, err)
	}
	dir, exists, err := s.checkedAttachmentDir(topicID)
	if err != nil {
		return nil, "", err
	}
	if !exists {
		if err := os.MkdirAll(dir, dirMode); err != nil {
			return nil, "", err
		}
	}
	p := filepath.Join(dir, name)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, fileMode)
	return f, p, err
}

// checkAttachmentName is AttachmentPath's name rule; errors wrap
// ErrBadAttachmentName and say which part of the rule failed.
func checkAttachmentName(name string) error {
	bad := func(why string) error { return fmt.Errorf("%w: %q: %s", ErrBadAttachmentName, name, why) }
	switch {
	case name == "":
		return bad("empty")
	case len(name) > maxNameBytes:
		return bad(fmt.Sprintf("longer than %d bytes", maxNameBytes))
	case !utf8.ValidString(name):
		return bad("not valid UTF-8")
	case name == "." || name == "..":
		return bad("names a directory")
	case strings.ContainsAny(name, `/\`):
		return bad("contains a path separator")
	case strings.ContainsRune(name, ':'):
		return bad("contains ':' (drive letter or stream)")
	case strings.ContainsFunc(name, isControl):
		return bad("contains a control character")
	case strings.ContainsAny(name, windowsForbidden):
		return bad(`contains one of <>"|?*`)
	case strings.HasSuffix(name, ".") || strings.HasSuffix(name, " "):
		return bad("ends in '.' or space, which Windows drops")
	case isWindowsDeviceName(name):
		return bad("a Windows device name")
	case filepath.IsAbs(name) || !filepath.IsLocal(name):
		// Unreachable after the rules above on every platform we build
		// for; kept so a platform rule we did not think of still refuses.
		return bad("not a plain file name")
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// drawsNothing reports a character AttachmentName replaces because a
// terminal would not show it as typed: C1 controls, format characters
// (bidi controls, zero widths, tag characters), line and paragraph
// separators and the other default-ignorable code points (fillers).
func drawsNothing(r rune) bool {
	return unicode.IsControl(r) || blank.Hidden(r)
}

// AttachmentName turns the name a file arrived with into one AttachmentPath
// accepts and a terminal types back unchanged (spec «添付»): invalid UTF-8,
// control characters and others that draw nothing (drawsNothing),
// Windows' <>:"/\|?*, shell syntax ($ ` ; & ' ! ( )) and
// '@'/'＠' (a mention would be cut out of the post body) become '_';
// trailing dots and spaces are dropped; a device name or a name starting
// with '.' (the copy would be hidden) gets a leading '_', its dots kept
// ("../x" is "_.._x": the spec's ".._x", never a dotfile, and never the
// same name as another's); a name over 80 characters (or 240 bytes) is
// cut keeping its extension; nothing left gives "file" (docs/design.md §8
// "Attachments").
func AttachmentName(raw string) string {
	stem, ext := attachmentParts(raw)
	return stem + ext
}

// attachmentParts is AttachmentName as a stem and an extension, the parts
// SaveAttachment numbers between. A leading run of dots belongs to the
// stem: "..x" and ".env" have no extension.
func attachmentParts(raw string) (stem, ext string) {
	s := strings.ToValidUTF8(raw, "_")
	s = strings.Map(func(r rune) rune {
		if isControl(r) || drawsNothing(r) || r == '@' || r == '＠' || strings.ContainsRune(windowsForbidden+shellSyntax, r) {
			return '_'
		}
		return r
	}, s)
	s = strings.TrimRight(s, ". ")
	ext = filepath.Ext(strings.TrimLeft(s, "."))
	if utf8.RuneCountInString(ext) >= attachmentNameRunes/2 {
		ext = "" // not an extension worth keeping
	}
	stem = cutStem(strings.TrimSuffix(s, ext), ext)
	if stem+ext == "" {
		return "file", ""
	}
	if isWindowsDeviceName(stem+ext) || strings.HasPrefix(stem+ext, ".") {
		stem = "_" + stem
	}
	return stem, ext
}

// cutName returns stem+ext cut (in the stem) to the attachment name limits.
func cutName(stem, ext string) string {
	return cutStem(stem, ext) + ext
}

// cutStem is stem cut so that stem+ext fits the attachment name limits.
// Without an extension the stem ends the name: it ends with no dot or
// space (Windows drops them). Before an extension its dots stay.
func cutStem(stem, ext string) string {
	stem = textcut.Runes(stem, attachmentNameRunes-utf8.RuneCountInString(ext))
	stem = textcut.Bytes(stem, attachmentNameBytes-len(ext))
	if ext == "" {
		stem = strings.TrimRight(stem, ". ")
	}
	return stem
}

// SaveAttachment stores the bytes of r as an attachment of topicID and
// returns its absolute path (spec «添付»). The name is made safe with
// AttachmentName; when it is taken, "name (2).ext", "name (3).ext" … are
// tried, each created only if absent (O_EXCL), so two saves never overwrite
// each other. The file is fsynced before the path is returned; a failed copy
// leaves nothing behind. Saving does not index the topic. Errors wrap
// ErrBadTopicID, ErrTopicDeleted, ErrAttachmentLink, ErrClosed or the I/O
// error.
func (s *Store) SaveAttachment(topicID, name string, r io.Reader) (path string, err error) {
	if err := s.checkWritable(topicID); err != nil {
		return "", fmt.Errorf("save attachment: %w", err)
	}
	stem, ext := attachmentParts(name)
	clean := stem + ext
	for n := 1; n <= maxAttachmentCopies; n++ {
		cand := clean
		if n > 1 {
			cand = cutName(stem, fmt.Sprintf(" (%d)%s", n, ext))
		}
		f, p, err := s.createAttachment(topicID, cand)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("save attachment: %w", err)
		}
		if err := writeAndSync(f, r); err != nil {
			os.Remove(p)
			return "", fmt.Errorf("save attachment %s: %w", p, err)
		}
		return p, nil
	}
	return "", fmt.Errorf("save attachment %q in topic %s: %d copies of that name already exist", clean, topicID, maxAttachmentCopies)
}

func writeAndSync(f *os.File, r io.Reader) error {
	_, err := io.Copy(f, r)
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// ResolveAttachment resolves path (symbolic links, "..", and on Windows
// junctions, which filepath.EvalSymlinks does not follow, are refused) and
// returns the real path when it is a regular file directly inside
// attachments/<topic>/ of this Store (spec «添付» #318: the UI opens only
// attachments, whatever a post's text points at). Errors wrap
// ErrAttachmentOutside.
func (s *Store) ResolveAttachment(path string) (string, error) {
	outside := func(why string) error { return fmt.Errorf("%w: %s: %s", ErrAttachmentOutside, path, why) }
	root, err := filepath.EvalSymlinks(s.attachmentRoot())
	if err != nil {
		return "", outside("no attachments folder")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", outside(err.Error())
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", outside("cannot be resolved")
	}
	rel, err := filepath.Rel(root, real)
	if err != nil {
		return "", outside("not under the attachments folder")
	}
	topic, name, ok := strings.Cut(rel, string(filepath.Separator))
	if !ok || checkTopicID(topic) != nil || name == "" || strings.ContainsRune(name, filepath.Separator) {
		return "", outside("not a file of a topic's attachments folder")
	}
	for _, p := range []string{filepath.Dir(real), real} {
		fi, err := os.Lstat(p)
		if err != nil {
			return "", outside(err.Error())
		}
		if fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
			return "", outside("passes through a link or junction")
		}
		if p == real && !fi.Mode().IsRegular() {
			return "", outside("not a regular file")
		}
	}
	return real, nil
}

// MaxAttachmentBytes is the largest file CopyAttachment copies into a
// topic: 100 MiB. Every file a model takes whole fits (the Messages API
// takes requests up to 32 MB, a PDF or an image among them), and a log or
// a data sample that a seat reads in parts with its own tools fits too;
// above it the copy made at send time (fsynced, under "sending…") would
// keep the human waiting for seconds, and a topic's folder would quietly
// grow by gigabytes. A 2 GB file is refused with its size and this cap.
const MaxAttachmentBytes = 100 << 20

// AttachmentSource checks a file a person picked to attach (spec «添付»):
// path must name a regular file (a link to one is followed: the person
// picked it) of at most MaxAttachmentBytes. It returns the file's info,
// also with ErrAttachmentTooLarge (so the refusal can give the size).
// Errors wrap fs.ErrNotExist (gone), ErrNotAFile (a folder, device, FIFO
// or socket), ErrAttachmentTooLarge or the stat error (fs.ErrPermission …).
func AttachmentSource(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("attachment source: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fi, fmt.Errorf("attachment source %s: %w (%v)", path, ErrNotAFile, fi.Mode().Type())
	}
	if fi.Size() > MaxAttachmentBytes {
		return fi, fmt.Errorf("attachment source %s: %w: %d bytes, the limit is %d", path, ErrAttachmentTooLarge, fi.Size(), MaxAttachmentBytes)
	}
	return fi, nil
}

// CopyAttachment saves a copy of the file at src as an attachment of
// topicID under the file's own name (SaveAttachment: AttachmentName's
// rules, "(2)" numbering, never overwriting) and returns the copy's
// absolute path. It checks src again as AttachmentSource does — the file
// may have gone, or changed, since it was picked — and never reads more
// than MaxAttachmentBytes of it: a file that grew past the cap leaves no
// copy. A FIFO put in its place is refused without waiting for a writer.
// Errors wrap those of AttachmentSource and SaveAttachment.
func (s *Store) CopyAttachment(topicID, src string) (string, error) {
	if _, err := AttachmentSource(src); err != nil {
		return "", err
	}
	f, err := os.OpenFile(src, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return "", fmt.Errorf("attachment source: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("attachment source: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("attachment source %s: %w (%v)", src, ErrNotAFile, fi.Mode().Type())
	}
	return s.SaveAttachment(topicID, filepath.Base(src), &capReader{r: f, left: MaxAttachmentBytes, path: src})
}

// capReader reads at most left bytes of r; one byte more is
// ErrAttachmentTooLarge.
type capReader struct {
	r    io.Reader
	left int64
	path string
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var probe [1]byte
		if n, err := c.r.Read(probe[:]); n > 0 {
			return 0, fmt.Errorf("attachment source %s: %w: it grew past %d bytes", c.path, ErrAttachmentTooLarge, MaxAttachmentBytes)
		} else if err != nil {
			return 0, err
		}
		return 0, nil
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// AttachmentsDir is the absolute folder every topic's attachments live
// under: <data>/logs/main/attachments (it may not exist yet).
func (s *Store) AttachmentsDir() string { return s.attachmentRoot() }

// TopicAttachmentsDir makes topicID's attachments folder if it is missing
// and returns it (a seat's CLI is given it as a folder it may read without
// asking: docs/design.md §8 "Attachments"). The same checks as
// AttachmentPath: a link in its place is refused.
func (s *Store) TopicAttachmentsDir(topicID string) (string, error) {
	if err := s.checkWritable(topicID); err != nil {
		return "", fmt.Errorf("attachments folder: %w", err)
	}
	p, err := s.AttachmentPath(topicID, "post.txt")
	if err != nil {
		return "", fmt.Errorf("attachments folder: %w", err)
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return "", fmt.Errorf("attachments folder: %w", err)
	}
	return dir, nil
}
