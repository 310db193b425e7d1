package logstore

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/pullcept/pullcept/room/textcut"
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
	return textcut.Bytes(body, BodyInline), true
}

// longPostPrefix starts a long post's body file name.
const longPostPrefix = "post-"

// bodyFileName is a long post's file name: "post-<message_id>.txt" when the
// id is plain (letters, digits, '.', '_', '-'; at most 64 bytes, as a UUID
// is), so a person can tell which post it is; else "post-<16 hex of its
// SHA-256>.txt". The id is the sender's: a hostile seat's id put shell
// syntax into the path typed into every other seat, and ids sharing an
// 80-character prefix all wanted one name (breaker review).
func bodyFileName(messageID string) string {
	plain := len(messageID) > 0 && len(messageID) <= 64 && messageID[0] != '.'
	for _, r := range messageID {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			plain = false
			break
		}
	}
	if plain {
		return longPostPrefix + messageID
	}
	sum := sha256.Sum256([]byte(messageID))
	return longPostPrefix + hex.EncodeToString(sum[:8])
}

// SaveBody writes the whole body of long post messageID in topicID as a
// new file in attachments/<topic>/ and returns its name (to keep in the
// post's log line as body_file) and absolute path. An existing file is
// never overwritten: a name already taken (an id reused after a restart)
// gets a random suffix, "-<8 hex>". Unlike SaveAttachment the file is not
// fsynced: the log line holds the same text (and is not fsynced either).
// The room calls it before it takes its lock, so the file exists before
// any post names it. Errors wrap ErrBadTopicID, ErrTopicDeleted,
// ErrAttachmentLink, ErrClosed or the I/O error.
func (s *Store) SaveBody(topicID, messageID, body string) (name, path string, err error) {
	if err := s.checkWritable(topicID); err != nil {
		return "", "", fmt.Errorf("save long post: %w", err)
	}
	stem := bodyFileName(messageID)
	for try := 0; try < 4; try++ {
		cand := stem + ".txt"
		if try > 0 {
			var suffix [4]byte
			if _, err := rand.Read(suffix[:]); err != nil {
				return "", "", fmt.Errorf("save long post: %w", err)
			}
			cand = stem + "-" + hex.EncodeToString(suffix[:]) + ".txt"
		}
		f, p, err := s.createAttachment(topicID, cand)
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
	return "", "", fmt.Errorf("save long post %q in topic %s: the name and 3 others were taken", stem, topicID)
}

// DropBody removes the body file name of topicID that SaveBody wrote for a
// post the room did not deliver with it (refused, rejected by the floor,
// or stamped with other text). Only a long post's file ("post-…") is
// removed, never through a link. Errors wrap ErrBadTopicID,
// ErrAttachmentLink or the I/O error.
func (s *Store) DropBody(topicID, name string) error {
	if !strings.HasPrefix(name, longPostPrefix) {
		return fmt.Errorf("drop body %q in topic %s: not a long post's file", name, topicID)
	}
	p, err := s.AttachmentPath(topicID, name)
	if err != nil {
		return fmt.Errorf("drop body: %w", err)
	}
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("drop body: %w", err)
	}
	return nil
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
