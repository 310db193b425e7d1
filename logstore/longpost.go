package logstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// BodyInline is the most of a post's body Pullcept holds in memory, types
// into a seat or hands back in a history page (docs/design.md §8 "Long
// posts"): 32 KiB is about 8 000 tokens, longer than any answer a seat
// writes, and 512 such posts on a room's floor are 16 MiB. A longer body is
// a long post: the log line keeps it whole, a file beside the attachments
// holds it whole for seats and the human to read, and everything else
// carries its first BodyInline bytes. 500 posts of 1 MiB held 1.79 GB while
// their topic was open before.
const BodyInline = 32 << 10

// ClipBody returns body cut to at most BodyInline bytes, at a rune
// boundary, and whether it cut anything.
func ClipBody(body string) (string, bool) {
	if len(body) <= BodyInline {
		return body, false
	}
	cut := BodyInline
	for cut > 0 && !utf8.RuneStart(body[cut]) {
		cut--
	}
	return body[:cut], true
}

// longPostPrefix names a long post's body file; the rest is the message id
// as an attachment name (AttachmentName), so a person can tell which post
// it is.
const longPostPrefix = "post-"

// SaveBody writes the whole body of long post messageID in topicID as a
// new file in attachments/<topic>/ and returns its name (to keep in the
// post's log line as body_file) and absolute path. An existing file is
// never overwritten: a second post naming the same id gets "-2" (ids are
// the sender's; no space, so a shell does not split the path). Unlike SaveAttachment the file is not fsynced: it is
// written under the room lock, and the log line holds the same text.
// Errors wrap ErrBadTopicID, ErrTopicDeleted, ErrAttachmentLink, ErrClosed
// or the I/O error.
func (s *Store) SaveBody(topicID, messageID, body string) (name, path string, err error) {
	if err := s.checkWritable(topicID); err != nil {
		return "", "", fmt.Errorf("save long post: %w", err)
	}
	clean := AttachmentName(longPostPrefix + messageID + ".txt")
	ext := filepath.Ext(clean)
	stem := strings.TrimSuffix(clean, ext)
	for n := 1; n <= maxAttachmentCopies; n++ {
		cand := clean
		if n > 1 {
			cand = cutName(stem, fmt.Sprintf("-%d%s", n, ext))
		}
		p, err := s.AttachmentPath(topicID, cand)
		if err != nil {
			return "", "", fmt.Errorf("save long post: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(p), dirMode); err != nil {
			return "", "", fmt.Errorf("save long post: %w", err)
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, fileMode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", "", fmt.Errorf("save long post: %w", err)
		}
		_, werr := f.WriteString(body)
		if err := errors.Join(werr, f.Close()); err != nil {
			os.Remove(p)
			return "", "", fmt.Errorf("save long post %s: %w", p, err)
		}
		return cand, p, nil
	}
	return "", "", fmt.Errorf("save long post %q in topic %s: %d files of that name already exist", clean, topicID, maxAttachmentCopies)
}

// BodyPath is the absolute path of a long post's body file name (a log
// line's body_file) in topicID, checked as AttachmentPath checks it; ""
// when name is "" or the file is gone (the log line still holds the text).
func (s *Store) BodyPath(topicID, name string) string {
	if name == "" {
		return ""
	}
	p, err := s.AttachmentPath(topicID, name)
	if err != nil {
		return ""
	}
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return p
}
