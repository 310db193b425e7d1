// Package tui is the terminal UI (docs/design.md §10): one Bubble Tea v2
// root model with the topic list, chat, participant panel, input bar, seat
// panes, account editor, dialogs and help overlay. It is the only package
// that imports Bubble Tea, Lip Gloss and Bubbles; domain packages never
// import it, and it reaches them only through Backend (backend.go).
//
// Rules (docs/design.md §14):
//
//   - One root model. Model owns focus (a Focus enum plus the focused
//     pane's seatKey), layout and routing. Features keep their own state
//     in structs with methods; none is a Bubble Tea model of its own.
//   - No I/O in Update. Every Backend call runs in a tea.Cmd that returns a
//     …Msg; Model.handle offers each message to a fixed list of routes
//     (model.go), and the feature that asked applies it, by its id (topic
//     id, seatKey, the editor's preview sequence): results for a topic no
//     longer open are dropped. Seat writes (keys, pastes, resizes) queue
//     and go in order through one command at a time, so keystrokes never
//     overtake each other. Reads that events re-ask (topics, seats,
//     snapshots) coalesce: one runs, asks meanwhile fold into one more.
//   - Every key goes through KeyMap (keys.go), overridable by name from
//     config.json; only the bytes a focused pane sends its seat are a
//     fixed encoding (keyenc.go).
//   - Layout is a pure function of the size and layoutState (layout.go).
//     After every message afterUpdate (frame.go) lays out, and each widget
//     re-renders into cached lines only when its render key (size, env.gen,
//     focus, cursor, a data version…) moved; the status line, overlays,
//     the @ popup and the cursor are rendered there too. View only joins
//     cached strings (render.go compose) and draws the @ popup and the
//     modal over the rows they cover (layers.go overlayLayers, which cuts
//     only those rows; it replaced Lip Gloss's compositor, which drew the
//     whole screen cell by cell: ~5 ms a frame under the editor).
//
// Files. X.go is a widget (its state and rendering); X_update.go is how
// the root model drives it: its keys, commands, messages and results.
//
//   - model.go: Options, Model, New, Init, Update and the message routes.
//   - update.go: routing of keys (overlay → rename prompt → focused pane →
//     @ popup → global keys → focused widget), pastes and the mouse.
//   - events.go: the bridge's events, each handed to the feature it
//     concerns; bridge.go: the re-arming waits themselves.
//   - focus.go: focus and the Tab cycle. frame.go: afterUpdate and View.
//   - topics.go, topics_update.go: the topic list (which also holds the
//     open topic's id) and its rename prompt; opening, switching, renaming
//     and deleting topics, and releasing a topic's brake.
//   - chat.go, chat_update.go: the open topic's conversation, history
//     paging, folds (an mcp account's run of notices as one "name (N)"
//     row, by the account's kind).
//   - input.go, input_update.go: the composer, the @ popup, posting.
//   - attach.go, attach_picker.go, chat_attach.go, attach_backend.go: the
//     input bar's attachment chips, the attach prompt (F4) and dropped
//     paths (the terminal's input waits while the app reads a drop: held
//     in Model.held, replayed after), the chat's chips and opening them;
//     the Attachments part of Backend.
//   - accounts.go, participants.go, accounts_update.go: the accounts and
//     rosters (accountBook), the participant panel (rows, and the selected
//     seat's details while it has focus), the copy key, and the account
//     editor's actions; editor.go is the editor widget, with its env field
//     (editor_env.go), kind change (editor_kind.go), character and body
//     (editor_character.go), layout — the message line above a scrolling
//     launch preview — (editor_layout.go), checks, save and cancel
//     (editor_save.go), and an mcp account's server: its state and
//     restart, its command, args and env, its log (editor_mcp.go, through
//     MCPServers, which a backend may implement); account_files.go is the
//     AccountFiles part of Backend.
//   - avatars.go, marks.go: the marks of initials before the names in the
//     chat and the panel when the "avatars" setting says so; marks.go
//     makes them, unique among the participants, as a pure function.
//   - activity.go: what a seat is doing and using, as the panel's rows and
//     the panes' titles say it — the activity word, usage lines with bars
//     and reset texts, held posts — and when the next relative text
//     changes (the text clock in seats_update.go wakes the UI then).
//   - seats.go, pane.go, seats_update.go: the open topic's seats
//     (seatArea), their panes, starting, stopping, typing, scrollback,
//     F6 between panes, closing an exited one; pane_read.go: reading a
//     pane (the mouse selection, the scrollback search, copying through
//     OSC 52); pane_mouse.go, mouseenc.go: the mouse over a pane, forwarded
//     to a seat that asked for it in the encoding it asked for.
//   - overlay.go, overlay_update.go, help.go, picker.go, dialog.go: the
//     modal layer (help, topic finder, confirmations; the editor too) and
//     its keys; layers.go draws an overlay over the screen's rows.
//   - settings.go, settings_update.go, settings_backend.go: the settings
//     overlay (F3; sections on the left, the chosen one's rows on the
//     right; each change in force at once, with no OK or Cancel): language,
//     theme, avatars, the brake (saved in config.json through Backend.SaveSettings,
//     one save at a time), the panels and the terminals' share (the layout,
//     handed to Backend.RememberView whenever it moves, whatever moved it),
//     the key map and the data folder to read; the Settings part of
//     Backend.
//   - permission.go, permission_update.go, permission_backend.go: the
//     permission cards (docs/design.md §10 "Permission cards"): a seat's
//     permission request waiting for the human, in its own rows between
//     the chat and the panes; it takes keys only once focused (F7, Tab, a
//     click), answers through Backend.AnswerPermission in a command, and
//     keeps a denial's reason only until the card closes; the Permissions
//     part of Backend.
//   - status.go: the status line. keys.go, keyenc.go: key bindings and the
//     seat key encoding. layout.go, render.go, theme.go, env.go, i18n.go:
//     rectangles, text fitting, colours, what widgets read to render, and
//     the English and Japanese catalog.
//
// Goroutines: the package starts none of its own. Bubble Tea runs each
// command in a goroutine it owns, recovers and waits for. bridge.go holds
// the only blocking commands: one re-arming wait per source, both behind
// Backend's Events — events (must-deliver: every event read is returned,
// in order, batched) and the seats' screen changes (coalesced). Run owns
// the tea.Program; a panic in Update, View or a command is recovered by
// Bubble Tea, which restores the terminal and makes Run return an error.
//
// There are no locks: all state is touched only from the program's event
// loop (commands capture what they need and return messages; they never
// touch the model).
package tui
