package character

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/pelletier/go-toml/v2"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room/textcut"
)

// Inline character selection (spec «移行前の inline 選択（#276）»,
// docs/design.md §9 "Character"): a Codex project without Li+'s style
// files keeps its characters as headings in the user's own
// developer_instructions, and the account's character names one of them.

// InlinePrefix starts every inline character heading's name: the account's
// character field holds the whole name, "character_Lin" for "# character_Lin".
const InlinePrefix = "character_"

// maxInlineNamesShown bounds the names an unknown-name refusal lists;
// maxInlineShown the bytes of one name or line a refusal quotes.
const (
	maxInlineNamesShown = 10
	maxInlineShown      = 80
)

// shown is s as a refusal quotes it: cut to maxInlineShown bytes, quoted
// (control characters escaped).
func shown(s string) string {
	if len(s) > maxInlineShown {
		s = textcut.Bytes(s, maxInlineShown) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// CheckInlineName says whether name can select an inline character: not
// empty, not the bare prefix, no whitespace or control character (a
// heading's name ends at its line's end, so a space would be part of it).
// Errors wrap ErrName.
func CheckInlineName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: no character named", ErrName)
	case name == InlinePrefix:
		return fmt.Errorf("%w: %q names no character (write the heading's whole name, like %sLin)", ErrName, name, InlinePrefix)
	}
	for _, r := range name {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return fmt.Errorf("%w: %q: a heading's name holds no whitespace or control character", ErrName, name)
		}
	}
	return nil
}

// inlineScan is SelectInline's state while it walks the lines.
type inlineScan struct {
	want     string
	out      strings.Builder
	names    map[string]bool
	order    []string
	cur      string // the character block the line is in ("" = common text)
	curLine  int    // its heading's line
	hasBody  bool   // the block holds a line that is not blank
	found    bool
	fence    rune // the open fence's character (0 = none)
	fenceLen int
}

// SelectInline is text, the user's effective developer_instructions, with
// only the character name's block left of the character blocks (#276): a
// column-0 line "# character_<name>" starts a block, the next column-0 H1
// ("# ") ends it; H2 and deeper headings, blank lines and rules belong to the
// block; a heading inside a ``` or ~~~ fence (three or more, closed by the
// same character at least as long with only whitespace after) is no
// boundary. The selected block stays where it is and every other line
// outside the other blocks stays, byte for byte (CRLF or LF, whitespace).
//
// Every block is checked, not only the selected one: a heading whose name
// is empty or holds whitespace, a name twice, a block with no text refuse
// the selection, as does a name no heading has (never another character
// instead). The result is at most MaxBytes. Errors wrap ErrInline (ErrName
// for a bad name asked for).
func SelectInline(text, name string) (string, error) {
	if err := CheckInlineName(name); err != nil {
		return "", err
	}
	s := &inlineScan{want: name, names: map[string]bool{}}
	line := 0
	for rest := text; rest != ""; {
		l := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			l = rest[:i+1]
		}
		rest = rest[len(l):]
		line++
		if err := s.line(l, line); err != nil {
			return "", err
		}
	}
	if err := s.closeBlock(); err != nil {
		return "", err
	}
	if !s.found {
		return "", s.unknown()
	}
	if s.out.Len() > MaxBytes {
		return "", fmt.Errorf("%w: the instructions with %s are %d bytes, over the %d-byte limit", ErrInline, name, s.out.Len(), MaxBytes)
	}
	return s.out.String(), nil
}

// line reads one line (with its line end) numbered n.
func (s *inlineScan) line(l string, n int) error {
	content := strings.TrimRight(l, "\r\n")
	if s.fenceLine(content) {
		s.keep(l, content)
		return nil
	}
	heading, ok := strings.CutPrefix(content, "# ")
	if !ok || s.fence != 0 {
		s.keep(l, content)
		return nil
	}
	if err := s.closeBlock(); err != nil {
		return err
	}
	heading = strings.TrimRightFunc(heading, unicode.IsSpace)
	if !strings.HasPrefix(heading, InlinePrefix) {
		s.cur = "" // another H1: common text again
		s.keep(l, content)
		return nil
	}
	if heading == InlinePrefix || strings.IndexFunc(heading, unicode.IsSpace) >= 0 {
		return fmt.Errorf("%w: line %d: %s: a character heading is # %s<name>, the name without whitespace", ErrInline, n, shown(content), InlinePrefix)
	}
	if s.names[heading] {
		return fmt.Errorf("%w: line %d: %s is defined twice", ErrInline, n, shown(heading))
	}
	s.names[heading] = true
	s.order = append(s.order, heading)
	s.cur, s.curLine, s.hasBody = heading, n, false
	if heading == s.want {
		s.found = true
	}
	s.keep(l, "")
	return nil
}

// fenceLine follows code fences: it reports whether content opens or
// closes one.
func (s *inlineScan) fenceLine(content string) bool {
	t := strings.TrimLeft(content, " \t")
	if !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
		return false
	}
	c := rune(t[0])
	n := len(t) - len(strings.TrimLeft(t, string(c)))
	switch {
	case s.fence == 0:
		s.fence, s.fenceLen = c, n
	case c == s.fence && n >= s.fenceLen && strings.TrimSpace(t[n:]) == "":
		s.fence = 0
	}
	return true
}

// keep writes line l when it is common text or the selected block's, and
// notes a block's text (content is l without its line end; "" for a
// heading, which is no text of its block).
func (s *inlineScan) keep(l, content string) {
	if s.cur != "" && strings.TrimSpace(content) != "" {
		s.hasBody = true
	}
	if s.cur == "" || s.cur == s.want {
		s.out.WriteString(l)
	}
}

// closeBlock ends the block the scan is in: an empty one refuses.
func (s *inlineScan) closeBlock() error {
	if s.cur != "" && !s.hasBody {
		return fmt.Errorf("%w: line %d: %s has no text", ErrInline, s.curLine, shown(s.cur))
	}
	s.cur = ""
	return nil
}

// unknown is the refusal of a name no heading has.
func (s *inlineScan) unknown() error {
	has := "no character headings"
	if len(s.order) > 0 {
		var names []string
		for _, n := range s.order[:min(len(s.order), maxInlineNamesShown)] {
			names = append(names, shown(n))
		}
		has = "headings " + strings.Join(names, ", ")
		if len(s.order) > len(names) {
			has += fmt.Sprintf(" and %d more", len(s.order)-len(names))
		}
	}
	hint := ""
	if !strings.HasPrefix(s.want, InlinePrefix) {
		hint = fmt.Sprintf(" (the field holds the heading's whole name, like %s%s)", InlinePrefix, s.want)
	}
	return fmt.Errorf("%w: no heading # %s in the effective developer_instructions, which has %s%s", ErrInline, s.want, has, hint)
}

// CodexInline reports whether a Codex seat in workDir selects its character
// inline (#276): no folder of the project — workDir and each parent up to
// the first that holds .git, the project root Codex reads .codex layers
// from (just workDir when none holds it), never the home folder, whose
// .codex is the user's — has .codex/output-styles or a [liplus]
// output_style in .codex/config.toml (Li+'s file mode, #281). Which
// layers Codex trusts is its own knowledge (CODEX_HOME): this reads the
// folders as they are. An unreadable config.toml is an error.
func CodexInline(workDir string) (bool, error) {
	home, _ := os.UserHomeDir()
	for _, d := range codexProjectDirs(workDir, home) {
		if _, err := os.Lstat(filepath.Join(d, codexFolder, stylesDirName)); err == nil {
			return false, nil
		}
		set, err := liplusSelectorSet(d)
		if err != nil {
			return false, err
		}
		if set {
			return false, nil
		}
	}
	return true, nil
}

// codexProjectDirs are the folders whose .codex Codex reads as project
// layers for a session in dir: dir and its parents up to the first holding
// .git, or dir alone when none does; home is left out.
func codexProjectDirs(dir, home string) []string {
	var out []string
	for d := filepath.Clean(dir); ; {
		if home == "" || d != filepath.Clean(home) {
			out = append(out, d)
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return out
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if home != "" && filepath.Clean(dir) == filepath.Clean(home) {
		return nil
	}
	return []string{filepath.Clean(dir)}
}

// liplusSelectorSet reports whether dir's .codex/config.toml has [liplus]
// output_style at all (a name, or false for no persona: either is Li+'s
// file mode).
func liplusSelectorSet(dir string) (bool, error) {
	path := filepath.Join(dir, codexFolder, "config.toml")
	data, err := config.ReadRegularFile(path, 1<<20, true)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var doc struct {
		LiPlus map[string]any `toml:"liplus"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	_, ok := doc.LiPlus["output_style"]
	return ok, nil
}
