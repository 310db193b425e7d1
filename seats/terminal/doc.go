// Package terminal is a seat's terminal (docs/design.md §10, §14;
// docs/dependencies.md §2): Screen feeds a PTY's output to our own state
// machine (package emu, on x/ansi's parser) under one lock, follows the
// child's mouse and input modes (mouse.go), and hands the UI copies
// (Snapshot) with a version counter, rendering again only the rows that
// changed. Pump copies a PTY into a Screen, reading while the emulator
// works. It
// knows nothing of seats, rooms or the UI: the emulator's replies (cursor
// reports) leave through the function given to NewScreen, which only
// enqueues (the seat's Typist).
//
// # Goroutines
//
// Per Screen: the flush timer (Screen.flusher), which places a trailing
// grapheme cluster held back for the next read after graphemeHold (8 ms).
// Owner: the Screen; it ends at Screen.Close, which waits for it. An exited
// seat's Screen stays readable, so it outlives the child. Per Pump call:
// its reader (pumpQueue.read), owned and waited for by Pump; it ends at the
// PTY's end. pumpQueue.mu guards the bytes it hands over (a leaf).
//
// # Locks
//
// Screen.mu guards the emulator and the rendered rows; it is a leaf, never
// held across the reply function or a PTY write. Screen.replyMu is taken
// before mu is released and held while the reply function runs, so replies
// keep the order of the writes that caused them (order: mu, then replyMu;
// the reply function must not call back into the Screen).
package terminal
