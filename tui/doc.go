// Package tui is the terminal UI (DESIGN §10): one Bubble Tea v2 root model
// with the topic list, chat, participant panel, input bar, seat panes,
// account editor, dialogs and help overlay. It is the only package that
// imports Bubble Tea, Lip Gloss and Bubbles; domain packages never import it.
//
// Rules (STYLE "Shape"):
//
//   - One root model (Model) owns focus (a Focus enum plus the focused pane's
//     id), layout and routing; widgets are structs with methods in their own
//     files (chat.go, input.go, topics.go, participants.go, pane.go,
//     editor.go, dialog.go). Keys go to the focused target; async results
//     go to their owner by id (topic id, (topic, account)).
//   - No I/O in Update. Every Backend call runs in a tea.Cmd and returns a
//     …Msg (commands.go). Seat writes (keys, pastes, resizes) are queued and
//     sent in order by one command at a time, so keystrokes never overtake
//     each other.
//   - layout is a pure function of size and state (layout.go). After every
//     message the model lays out and re-renders the widgets whose state
//     moved into cached lines; View only assembles those strings
//     (render.go compose) and composites overlays with the Lip Gloss
//     compositor.
//
// Goroutines: the package starts none of its own. Bubble Tea runs each
// command in a goroutine it owns, recovers and waits for. bridge.go holds
// the only blocking commands: one re-arming wait per source — room events
// and app events (must-deliver: every event read is returned, in order,
// batched) and the seats' screen signal (capacity 1, coalesced). Run owns
// the tea.Program; a panic in Update, View or a command is recovered by
// Bubble Tea, which restores the terminal and makes Run return an error.
//
// There are no locks: all state is touched only from the program's event
// loop.
package tui
