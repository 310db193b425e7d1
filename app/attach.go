package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/tui"
)

// The Backend's attachments (tui.Attachments, docs/design.md §8
// "Attachments"): checking a picked or dropped file, copying it under the
// topic at send time (logstore.CopyAttachment), and opening an attachment
// with the system's opener (opener_*.go).

var _ tui.Attachments = (*Backend)(nil)

// errNoOpener: the system has no program that opens files (a server
// without a desktop); the UI then gives the path.
var errNoOpener = errors.New("no program here opens files")

// AttachmentsDir is the store's attachments folder.
func (b *Backend) AttachmentsDir() string { return b.a.store.AttachmentsDir() }

// expandPath reads a path as a person types it: "~" and "~/…" are the home
// folder, a relative path is taken from Pullcept's working directory.
func expandPath(p string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) && runtime.GOOS == "windows" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("expand %q: %w", p, err)
		}
		p = filepath.Join(home, p[1:])
	}
	return filepath.Abs(p)
}

// ListDir lists a folder for the attach prompt's completion: at most
// tui.MaxDirEntries entries by name (a link is a folder when it leads to
// one).
func (b *Backend) ListDir(dir string) ([]tui.DirEntry, bool, error) {
	abs, err := expandPath(dir)
	if err != nil {
		return nil, false, err
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, false, fmt.Errorf("list %s: %w", dir, err)
	}
	defer f.Close()
	// Read one more than shown to know there is more; never the whole of
	// a huge folder.
	des, err := f.ReadDir(tui.MaxDirEntries + 1)
	// An empty folder reads as io.EOF: nothing to list is no error (it
	// showed "Cannot list the folder: list : EOF").
	if err != nil && len(des) == 0 && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, io.EOF) {
		return nil, false, fmt.Errorf("list %s: %w", dir, err)
	}
	more := len(des) > tui.MaxDirEntries
	des = des[:min(len(des), tui.MaxDirEntries)]
	out := make([]tui.DirEntry, 0, len(des))
	for _, de := range des {
		isDir := de.IsDir()
		if de.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(abs, de.Name())); err == nil {
				isDir = fi.IsDir()
			}
		}
		out = append(out, tui.DirEntry{Name: de.Name(), Dir: isDir})
	}
	slices.SortFunc(out, func(x, y tui.DirEntry) int { return strings.Compare(x.Name, y.Name) })
	return out, more, nil
}

// attachmentFile checks the file at abs (logstore.AttachmentSource).
func attachmentFile(given, abs string) (tui.AttachmentFile, error) {
	fi, err := logstore.AttachmentSource(abs)
	if err != nil {
		return tui.AttachmentFile{}, attachmentError(given, fi, err)
	}
	return tui.AttachmentFile{Path: abs, Name: logstore.AttachmentName(filepath.Base(abs)), Size: fi.Size()}, nil
}

// attachmentError turns a logstore refusal into the UI's
// *tui.AttachmentError; fi, when known, gives the size.
func attachmentError(path string, fi fs.FileInfo, err error) error {
	e := &tui.AttachmentError{Path: path, Limit: logstore.MaxAttachmentBytes, Detail: err.Error()}
	if fi != nil {
		e.Size = fi.Size()
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.Reason = tui.AttachmentGone
	case errors.Is(err, logstore.ErrNotAFile):
		e.Reason = tui.AttachmentNotFile
	case errors.Is(err, logstore.ErrAttachmentTooLarge):
		e.Reason = tui.AttachmentTooLarge
	case errors.Is(err, fs.ErrPermission):
		e.Reason = tui.AttachmentUnreadable
	default:
		return err
	}
	return e
}

// CheckAttachment checks a typed path.
func (b *Backend) CheckAttachment(path string) (tui.AttachmentFile, error) {
	abs, err := expandPath(strings.TrimSpace(path))
	if err != nil {
		return tui.AttachmentFile{}, err
	}
	return attachmentFile(path, abs)
}

// maxDropBytes bounds a paste read as dropped paths: a drop of
// room.MaxAttachments long paths fits many times over; a longer paste is
// text without looking further.
const maxDropBytes = 64 << 10

// DroppedFiles reads a paste as dropped files: the paste splits into words
// as a shell (or Windows Terminal's quoting) writes them (config.SplitWords:
// '…', "…", backslash-escaped spaces and quotes, Windows paths kept
// whole); a file:// URL is its path. Outside Windows a word that names
// nothing is tried once more with every backslash escape read (iTerm2
// writes "\(" for "("). Every word must name an existing file, at most
// room.MaxAttachments of them.
func (b *Backend) DroppedFiles(paste string) ([]tui.AttachmentFile, []error, bool) {
	if len(paste) > maxDropBytes {
		return nil, nil, false
	}
	words, err := config.SplitWords(paste)
	if err != nil || len(words) == 0 || len(words) > room.MaxAttachments {
		return nil, nil, false
	}
	var files []tui.AttachmentFile
	var refused []error
	for _, w := range words {
		abs, ok := droppedPath(w)
		if !ok {
			return nil, nil, false
		}
		f, err := attachmentFile(w, abs)
		var ae *tui.AttachmentError
		switch {
		case err == nil:
			files = append(files, f)
		case errors.As(err, &ae) && ae.Reason == tui.AttachmentTooLarge:
			refused = append(refused, err)
		default:
			return nil, nil, false // not a file: the paste is text
		}
	}
	return files, refused, true
}

// droppedPath is the existing path a dropped word names, if any.
func droppedPath(w string) (string, bool) {
	if strings.HasPrefix(w, "file://") {
		u, err := url.Parse(w)
		if err != nil || u.Host != "" && u.Host != "localhost" {
			return "", false
		}
		w = u.Path
		if runtime.GOOS == "windows" {
			w = strings.TrimPrefix(filepath.FromSlash(w), `\`) // /C:/x → C:\x
		}
	}
	if !filepath.IsAbs(w) {
		return "", false
	}
	if _, err := os.Stat(w); err == nil {
		return filepath.Clean(w), true
	}
	if runtime.GOOS != "windows" && strings.Contains(w, `\`) {
		var b strings.Builder
		for i := 0; i < len(w); i++ {
			if w[i] == '\\' && i+1 < len(w) {
				i++
			}
			b.WriteByte(w[i])
		}
		if _, err := os.Stat(b.String()); err == nil {
			return filepath.Clean(b.String()), true
		}
	}
	return "", false
}

// SaveAttachment copies a picked file under the topic.
func (b *Backend) SaveAttachment(topicID, path string) (string, error) {
	saved, err := b.a.store.CopyAttachment(topicID, path)
	if err != nil {
		fi, _ := os.Stat(path)
		return "", attachmentError(path, fi, err)
	}
	b.a.logger.Info("attachment saved", "topic", topicID, "from", path, "to", saved)
	return saved, nil
}

// OpenAttachment resolves path into the attachments folder
// (logstore.ResolveAttachment: links, junctions and ".." followed, then
// checked) and opens the resolved file with the system's opener; a file
// the system would run is refused.
func (b *Backend) OpenAttachment(path string) error {
	real, err := b.a.store.ResolveAttachment(path)
	if err != nil {
		return &tui.AttachmentError{Path: path, Reason: tui.AttachmentOutside, Detail: err.Error()}
	}
	fi, err := os.Stat(real)
	if err != nil {
		return attachmentError(path, nil, err)
	}
	if runnable(real, fi.Mode(), runtime.GOOS) {
		return &tui.AttachmentError{Path: path, Reason: tui.AttachmentRunnable}
	}
	open := b.opener
	if open == nil {
		open = systemOpen
	}
	if err := open(real); err != nil {
		b.a.logger.Warn("attachment not opened", "path", real, "err", err)
		return err
	}
	b.a.logger.Info("attachment opened", "path", real)
	return nil
}

// opensAsDocument are the extensions the chat opens with the system's
// opener: pictures, PDFs, text, audio and video, office documents without
// macros. A seat can put any file in the attachments folder (it runs as
// the user) and name it in a post, and the list of what an opener runs is
// long and grows (.exe under Wine, .py where Python is installed, .chm,
// .search-ms, .fileloc…: a breaker review found a refuse-list left them
// open), so the list says what may open, not what may not; anything else
// gives the path instead (docs/design.md §8).
var opensAsDocument = []string{
	".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".avif", ".ico",
	".pdf", ".txt", ".md", ".markdown", ".csv", ".tsv", ".json", ".log", ".yaml", ".yml", ".toml", ".diff", ".patch",
	".mp3", ".wav", ".flac", ".ogg", ".m4a", ".mp4", ".mov", ".webm", ".mkv",
	".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp", ".rtf",
}

// runnable reports whether the chat must not open name (a file of that
// mode) on goos: an extension outside opensAsDocument, a name ending in a
// dot or space (Windows drops them and may open another file), or outside
// Windows an execute bit.
func runnable(name string, mode fs.FileMode, goos string) bool {
	base := filepath.Base(name)
	if strings.HasSuffix(base, ".") || strings.HasSuffix(base, " ") {
		return true
	}
	if !slices.Contains(opensAsDocument, strings.ToLower(filepath.Ext(base))) {
		return true
	}
	return goos != "windows" && mode&0o111 != 0
}
