package claude

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// interruptMark starts the user entry Claude Code writes to its transcript
// when the human interrupts a turn: Esc while it runs ("[Request
// interrupted by user]") or "No" in a permission dialog ("… for tool
// use]"). No hook fires then (measured with 2.1.328): without this line
// the seat would read "thinking" while Claude sits at its prompt, and its
// posts would wait for a Stop that never comes.
const interruptMark = "[Request interrupted by user"

// interrupted ends the seat's turn when line is the transcript's interrupt
// entry of the main conversation (not a subagent's).
func interrupted(s cli.Seat, line []byte) {
	if !bytes.Contains(line, []byte(interruptMark)) {
		return
	}
	var e struct {
		Type        string    `json:"type"`
		IsSidechain bool      `json:"isSidechain"`
		Timestamp   time.Time `json:"timestamp"`
		Message     struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &e) != nil || e.Type != "user" || e.IsSidechain || e.Message.Role != "user" {
		return
	}
	if !strings.HasPrefix(firstText(e.Message.Content), interruptMark) {
		return
	}
	now := s.Now()
	s.Report(func(x *cli.Reported) bool {
		if x.Activity.Kind == cli.ActivityIdle && len(x.Perm.Pending) == 0 {
			return false
		}
		if !e.Timestamp.IsZero() && e.Timestamp.Before(x.Activity.Since) {
			// Read late (the tail polls): a turn began after it.
			return false
		}
		x.Closed = cli.ClosedAsks(x.Perm, cli.PermWait{})
		x.Activity = cli.Activity{Kind: cli.ActivityIdle, Since: now}
		x.Perm = cli.PermWait{}
		return true
	})
}

// firstText is a message content's text: the string itself, or the first
// text block of a list.
func firstText(c json.RawMessage) string {
	var str string
	if json.Unmarshal(c, &str) == nil {
		return str
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(c, &blocks) != nil {
		return ""
	}
	for _, b := range blocks {
		if b.Type == "text" {
			return b.Text
		}
	}
	return ""
}

// Composer reads Claude Code's input box (cli.Confirmer): the rows between
// the last two rules of "─" on the screen, its first row after the "❯"
// prompt (2.1.328 draws it with a no-break space after the mark, history
// rows with a plain one). The box of a long paste shows a placeholder
// ("[Pasted text #1 +K lines]"), which never equals a post.
func (*Adapter) Composer(rows []string, _, _ int) (string, bool) {
	var rules []int
	for i := len(rows) - 1; i >= 0 && len(rules) < 2; i-- {
		if isRule(rows[i]) {
			rules = append(rules, i)
		}
	}
	if len(rules) < 2 || rules[0]-rules[1] < 2 {
		return "", false
	}
	box := rows[rules[1]+1 : rules[0]]
	// The mark and the rules start at column 0; every row of the box's
	// text is indented, so a post cannot draw a box of its own inside it.
	first, ok := strings.CutPrefix(box[0], "❯")
	if !ok {
		return "", false
	}
	lines := []string{strings.TrimLeft(first, " \u00a0")}
	for _, r := range box[1:] {
		lines = append(lines, strings.TrimLeft(r, " "))
	}
	return strings.Join(lines, "\n"), true
}

// isRule reports whether row is a horizontal rule from column 0: at
// least 8 "─" and nothing else but trailing spaces.
func isRule(row string) bool {
	t := strings.TrimRight(row, " ")
	return strings.HasPrefix(t, "─") && strings.Count(t, "─") >= 8 && strings.Trim(t, "─") == ""
}
