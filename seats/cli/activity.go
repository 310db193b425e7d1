package cli

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pullcept/pullcept/room/textcut"
)

// What a seat is doing, as its CLI reports it (docs/design.md §11; spec
// «Claude Code の席は自分の様子を hook で知らせる», «走っているアカウントが何を
// しているか»). Claude Code seats report through http hooks, Codex seats
// through their rollout or app-server notes; for them the app never reads
// terminal output. A kind whose CLI reports nothing (Adapter.Observed) gets
// what its terminal shows instead: output arriving, or measured silence
// (observed.go).

// ActivityKind is the stage of a seat's turn.
type ActivityKind int

// Activity kinds. ActivityUnknown is the state before any report: the panel
// says nothing it has not observed.
const (
	ActivityUnknown ActivityKind = iota
	// ActivityThinking: a turn runs and no tool is running.
	ActivityThinking
	// ActivityTool: a tool runs (Activity.Tool names it).
	ActivityTool
	// ActivityPermission: the CLI waits for the human to allow a tool
	// (Activity.Tool names it); room posts are held meanwhile.
	ActivityPermission
	// ActivityIdle: the turn ended (Activity.Since says when); for an
	// observed seat, its terminal went silent.
	ActivityIdle
	// ActivityOutput: output arrives in the seat's terminal (an observed
	// seat: Observed); it says bytes came, not that the CLI works.
	ActivityOutput
)

// String names the kind for logs and tests.
func (k ActivityKind) String() string {
	switch k {
	case ActivityThinking:
		return "thinking"
	case ActivityTool:
		return "tool"
	case ActivityPermission:
		return "permission"
	case ActivityIdle:
		return "idle"
	case ActivityOutput:
		return "output"
	}
	return "unknown"
}

// Activity is a seat's last reported activity. Since is when Kind began;
// Subagents counts the subagents running (Claude Code's Task tool).
type Activity struct {
	Kind      ActivityKind
	Tool      string
	Subagents int
	Since     time.Time
}

// The typing holds of a permission wait (docs/design.md §5). A post's "\r"
// typed into a permission dialog answers it (measured with Claude Code
// 2.1.328: it approved a Bash command), and text typed while the dialog
// closes is lost, so posts wait:
//
//   - HoldPermission from the PermissionRequest hook while the dialog is
//     open;
//   - HoldAnswered from the human's answering key in the pane until the
//     CLI's next hook (the tool's result, Stop, the next prompt). A key is
//     not proof: Claude Code ignores keys for a moment after the dialog
//     shows (an Enter pressed at once left it open), and a denial sends no
//     hook at all — its held posts then go after the human's next prompt,
//     which is what Claude asks for ("What should Claude do instead?").
const (
	HoldPermission = "permission"
	HoldAnswered   = "answered"
)

// MaxToolName bounds a tool name kept from a hook body: names are short
// (Bash, mcp__server__tool); a longer one is cut, never stored whole.
const MaxToolName = 96

// PermWait is a seat's open permission requests (docs/design.md §11): the
// PermissionRequests whose tool has not reported a result yet, oldest
// first. Claude Code asks for several at once ("1 of 2") and runs tools in
// parallel, so one tool's result must not end another tool's wait: a
// request ends only with its own tool's PostToolUse or PostToolUseFailure
// (matched by tool name and input — the PermissionRequest carries no
// tool_use_id), or with the turn (Stop, the next prompt).
//
// The order the requests arrive in is not the order Claude Code shows
// their dialogs in: each request's hook reaches the room in its own time
// (measured with 2.1.328 on a busy machine: the second dialog's request
// arrived 134 ms before the first's). So an answering key in the pane
// answered one of the requests not known answered, which one unknown:
// Keys counts such keys until a tool's result says which (the request
// whose tool ran was answered), or until there are as many keys as such
// requests (then every one was).
type PermWait struct {
	Pending []PermRequest
	Keys    int
}

// PermRequest is one open PermissionRequest: its tool for the panel, and
// the key its tool's result must carry ("" when the body could not be read:
// only the turn's end releases it). ask is the room's card for it
// (room.Report.Ask; 0: none), which closes once the request is known
// answered or ends (room.Hub.AskClosed). Answered: known answered, on its
// card or by the pane's keys (PermWait.Keys); denied marks one denied on
// its card: its tool never runs, so it ends at the CLI's next hook,
// whatever that is.
type PermRequest struct {
	Tool, Key string
	Ask       uint64
	Answered  bool
	Denied    bool
}

// MaxPermWait bounds the open requests kept per seat; more are not kept,
// and the ones kept still hold (a hostile seat only holds its own posts).
const MaxPermWait = 64

// unanswered counts the requests not known answered.
func (w PermWait) unanswered() int {
	n := 0
	for _, r := range w.Pending {
		if !r.Answered {
			n++
		}
	}
	return n
}

// DialogOpen reports whether a dialog is believed on screen: more requests
// not known answered than the pane's keys answered.
func (w PermWait) DialogOpen() bool { return w.unanswered() > w.Keys }

// Holds are the Typist hold reasons w implies: HoldPermission while a
// dialog is open, HoldAnswered while every request is answered but some
// tool has not reported yet.
func (w PermWait) Holds() (permission, answered bool) {
	return w.DialogOpen(), len(w.Pending) > 0 && !w.DialogOpen()
}

// Equal reports whether w and o hold the same requests, answered alike.
func (w PermWait) Equal(o PermWait) bool {
	return w.Keys == o.Keys && slices.Equal(w.Pending, o.Pending)
}

// OpenTool is the tool the panel names while a dialog is open: the oldest
// request not known answered past the ones the pane's keys answered, were
// they answered in arrival order (a guess; the hooks do not say).
func (w PermWait) OpenTool() string {
	skip := w.Keys
	for _, r := range w.Pending {
		if r.Answered {
			continue
		}
		if skip == 0 {
			return r.Tool
		}
		skip--
	}
	return ""
}

// Done ends the request with key whose tool reported, if any: the oldest
// one known answered, else the oldest. One not known answered that ran was
// answered by one of the pane's keys, if any: that key is now placed.
func (w PermWait) Done(key string) PermWait {
	if key == "" {
		return w
	}
	i := slices.IndexFunc(w.Pending, func(r PermRequest) bool { return r.Key == key && r.Answered })
	if i < 0 {
		i = slices.IndexFunc(w.Pending, func(r PermRequest) bool { return r.Key == key })
	}
	if i < 0 {
		return w
	}
	if !w.Pending[i].Answered && w.Keys > 0 {
		w.Keys--
	}
	w.Pending = slices.Delete(slices.Clone(w.Pending), i, i+1)
	return w
}

// OpenAsks are the cards of the requests not known answered: the ones
// whose dialog is open, and while the pane's keys are not placed, the
// ones a key may have answered — a card closes only when its own request
// is known answered or ended, never on a guess.
func (w PermWait) OpenAsks() []uint64 {
	var out []uint64
	for _, r := range w.Pending {
		if !r.Answered && r.Ask != 0 {
			out = append(out, r.Ask)
		}
	}
	return out
}

// ClosedAsks are the cards open in old whose request new no longer has
// open: answered in the pane, or ended.
func ClosedAsks(old, next PermWait) []uint64 {
	still := next.OpenAsks()
	var out []uint64
	for _, id := range old.OpenAsks() {
		if !slices.Contains(still, id) {
			out = append(out, id)
		}
	}
	return out
}

// AnswerAsk marks the request of card ask answered on the card (denied:
// refused there). A request already known answered, or unknown, is left
// as it is. The pane's keys stay unplaced: one may have answered this
// same dialog, so the others' cards stay open.
func (w PermWait) AnswerAsk(ask uint64, denied bool) PermWait {
	i := slices.IndexFunc(w.Pending, func(r PermRequest) bool { return r.Ask == ask })
	if ask == 0 || i < 0 || w.Pending[i].Answered {
		return w
	}
	w.Pending = slices.Clone(w.Pending)
	w.Pending[i].Answered, w.Pending[i].Denied = true, denied
	w.Keys = min(w.Keys, w.unanswered())
	return w
}

// DropDenied ends the requests denied on their cards: the CLI sent a hook
// after the denial, so its dialog is gone.
func (w PermWait) DropDenied() PermWait {
	if !slices.ContainsFunc(w.Pending, func(r PermRequest) bool { return r.Denied }) {
		return w
	}
	w.Pending = slices.DeleteFunc(slices.Clone(w.Pending), func(r PermRequest) bool { return r.Denied })
	return w
}

// Step is what one hook changes: the new activity and permission
// wait, and whether anything the panel shows moved.
type Step struct {
	Next    Activity
	Wait    PermWait
	Changed bool
}

// AnswerDialog notes one write of the human's keys while a permission
// dialog is believed open: an answering key (answersDialog) answers one of
// the requests not known answered (PermWait.Keys); once the keys match
// them all, every one is known answered. The activity shows a dialog still
// open (OpenTool), or thinking.
func AnswerDialog(cur Activity, wait PermWait, b []byte, now time.Time) Step {
	if !wait.DialogOpen() || !answersDialog(b) {
		return Step{Next: cur, Wait: wait}
	}
	next := wait
	if next.Keys++; next.Keys >= next.unanswered() {
		next.Pending = slices.Clone(next.Pending)
		for i := range next.Pending {
			next.Pending[i].Answered = true
		}
		next.Keys = 0
	}
	return Step{Next: afterAnswer(cur, next, now), Wait: next, Changed: true}
}

// AnswerCard notes the human's answer to card ask in the room: its request
// is answered (denied: refused there); the activity shows a dialog still
// open, or thinking.
func AnswerCard(cur Activity, wait PermWait, ask uint64, denied bool, now time.Time) Step {
	next := wait.AnswerAsk(ask, denied)
	if next.Equal(wait) {
		return Step{Next: cur, Wait: wait}
	}
	return Step{Next: afterAnswer(cur, next, now), Wait: next, Changed: true}
}

// afterAnswer is the activity once an answer left wait: the dialog still
// open, or thinking since now.
func afterAnswer(cur Activity, wait PermWait, now time.Time) Activity {
	if wait.DialogOpen() {
		return Activity{Kind: ActivityPermission, Tool: wait.OpenTool(), Subagents: cur.Subagents, Since: cur.Since}
	}
	return Activity{Kind: ActivityThinking, Subagents: cur.Subagents, Since: now}
}

// ToolName keeps a tool name short and free of control characters: it is
// shown in the panel and in the pane's title.
func ToolName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > MaxToolName {
		s = textcut.Runes(s, MaxToolName) + "…"
	}
	return s
}

// OptionKey reports whether one write of the human's keys picks a dialog
// option by itself: a digit, y or n.
func OptionKey(b []byte) bool {
	return len(b) == 1 && answersDialog(b) && b[0] != '\r' && b[0] != 0x1b
}

// answersDialog reports whether one write of the human's keys may answer a
// permission dialog: Enter, Esc, a digit (an option's number) or y/n.
func answersDialog(b []byte) bool {
	if len(b) != 1 {
		return false
	}
	switch c := b[0]; {
	case c == '\r', c == 0x1b, c >= '0' && c <= '9':
		return true
	case c == 'y', c == 'Y', c == 'n', c == 'N':
		return true
	}
	return false
}

// Usage is a seat's last reported usage (docs/design.md §11): the model and
// effort it runs, and the used percentages of its context window and of its
// plan's 5-hour and 7-day windows with their reset times. A nil percentage
// or a zero time is unknown — shown as "—", never 0 %. At is when the
// report arrived (zero: none yet). The figures outlive the seat's exit:
// they are the last known.
//
// Each percentage has its own received time (ContextAt, FiveHourAt,
// WeeklyAt; zero while it has none): when a report carrying it arrived,
// the same value again included (spec «席が自分の利用上限を読む（#364）»
// «値が前と同じでも新しく受け取れば時刻は進む»). A Codex token_count
// carries the context or the plan's windows, not always both.
type Usage struct {
	Model, Effort  string
	Context        *float64
	FiveHour       *float64
	Weekly         *float64
	FiveHourResets time.Time
	WeeklyResets   time.Time
	At             time.Time

	ContextAt, FiveHourAt, WeeklyAt time.Time
}

// Received stamps at as the received time of every percentage u carries
// (a report that names them all: Claude Code's status line).
func (u *Usage) Received(at time.Time) {
	u.At = at
	if u.Context != nil {
		u.ContextAt = at
	}
	if u.FiveHour != nil {
		u.FiveHourAt = at
	}
	if u.Weekly != nil {
		u.WeeklyAt = at
	}
}
