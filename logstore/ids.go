package logstore

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/clipperhouse/displaywidth"
	"github.com/google/uuid"
)

// maxTopicIDLen bounds a topic id (bytes). A UUID is 36; 100 leaves room for
// ids from elsewhere while keeping <id>.jsonl far from the 255-byte name
// limit of common filesystems.
const maxTopicIDLen = 100

// topicNameWidth is how many terminal columns a name made from a first post
// may take, "…" included: the topic list column shows about that much.
const topicNameWidth = 40

// NewTopicID returns a fresh topic id: a UUID version 7 in its canonical
// lower-case form (36 characters, sortable by creation time, random in the
// rest). Nothing is written: the topic gets a file and an index entry only
// at its first post or first seat start (docs/design.md §8 "Lazy creation").
func NewTopicID() string {
	// NewV7 fails only when crypto/rand does, which since Go 1.24 never
	// returns an error (it aborts the program instead).
	return uuid.Must(uuid.NewV7()).String()
}

// NewTopicID is the package function NewTopicID, offered on the Store for
// callers that hold only the Store.
func (s *Store) NewTopicID() string { return NewTopicID() }

// checkTopicID reports whether id can name a topic: 1–100 bytes of ASCII
// letters, digits, '-', '_' and '.', not starting or ending with '.', and not
// a Windows device name (CON, NUL, COM1 …). Such an id is a file name stem on
// every platform and cannot leave logs/main/. The error wraps ErrBadTopicID.
func checkTopicID(id string) error {
	if id == "" || len(id) > maxTopicIDLen {
		return fmt.Errorf("%w: %q: must be 1 to %d bytes", ErrBadTopicID, id, maxTopicIDLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		if !ok {
			return fmt.Errorf("%w: %q: only ASCII letters, digits, '-', '_' and '.' are allowed", ErrBadTopicID, id)
		}
	}
	if id[0] == '.' || id[len(id)-1] == '.' {
		return fmt.Errorf("%w: %q: must not start or end with '.'", ErrBadTopicID, id)
	}
	if isWindowsDeviceName(id) {
		return fmt.Errorf("%w: %q: a Windows device name", ErrBadTopicID, id)
	}
	return nil
}

// isWindowsDeviceName reports whether Windows would open a device instead of
// a file for name in any directory: CON, PRN, AUX, NUL, COM0–9, LPT0–9 (and
// the superscript ¹²³ forms), CONIN$, CONOUT$, compared case-insensitively on
// the part before the first '.' or ':' with trailing spaces removed
// ("nul.txt" and "NUL .log" are devices too). Go's own Windows path rule plus
// COM0/LPT0 from Microsoft's naming rules, applied on every platform because
// a data directory can be copied between machines.
func isWindowsDeviceName(name string) bool {
	if i := strings.IndexAny(name, ".:"); i >= 0 {
		name = name[:i]
	}
	name = strings.ToUpper(strings.TrimRight(name, " "))
	switch name {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(name) >= 4 && (strings.HasPrefix(name, "COM") || strings.HasPrefix(name, "LPT")) {
		switch name[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

// TopicName makes a topic's name from the content of its first post (DESIGN
// §8, spec «トピック»): the first line that is not blank, trimmed, control
// characters dropped (tabs become spaces), cut on a grapheme boundary to at
// most 40 terminal columns with "…" when cut. "" when the content has no
// visible text. A post of attachments only (its first line an attachment
// label) names the topic by its files: "Attachments: a.png, b.pdf".
func TopicName(content string) string {
	content = strings.ReplaceAll(strings.ReplaceAll(content, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(content, "\n")
	for i, line := range lines {
		name := cleanName(line)
		if name == "" {
			continue
		}
		if (name == AttachmentsLabel || name == AttachmentsLabelJa) && i+1 < len(lines) {
			var files []string
			for _, p := range lines[i+1:] {
				if f := strings.TrimPrefix(cleanName(p), "- "); f != "" {
					files = append(files, filepath.Base(f))
				}
			}
			name += " " + strings.Join(files, ", ")
		}
		return displaywidth.TruncateString(name, topicNameWidth, "…")
	}
	return ""
}

// cleanName trims s and drops control characters (a name is drawn into the
// terminal UI, where they would move the cursor or change colours).
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r), r == '\u2028', r == '\u2029':
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}
