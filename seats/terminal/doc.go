// Package terminal is a seat's terminal emulator and the mirror around it
// (docs/design.md §10, §14; docs/dependencies.md §2): Screen feeds a PTY's
// output to charmbracelet/x/vt, batches line floods into one scroll
// (scrollbatch.go), keeps a bounded scrollback, follows the child's mouse
// and input modes (mouse.go), guards the links it shows (links.go), and
// hands the UI copies (Snapshot) with a version counter. Pump copies a PTY
// into a Screen with a bounded read-ahead. It knows nothing of seats,
// rooms or the UI: the emulator's replies (cursor reports) leave through
// the function given to NewScreen, which only enqueues (the seat's Typist).
//
// # Goroutines
//
// Per Screen: the reply reader (Screen.readReplies) and the flush timer
// (Screen.flusher), which feeds what the Screen holds back — a trailing
// grapheme cluster after graphemeHold (8 ms), a held line flood after at
// most 100 ms. Owner: the Screen; both end at Screen.Close, which waits for
// them. An exited seat's Screen stays readable, so they outlive the child.
// Per Pump call: the read-ahead (at most pumpAhead buffers), owned and
// waited for by Pump; it ends at the reader's EOF or close.
//
// # Locks
//
// Screen.mu guards the emulator and the mirror; it is a leaf, never held
// across the reply function or a PTY write (the replies are read by the
// reply reader after the lock is released).
package terminal
