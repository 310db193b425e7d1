// Package emu is a seat's terminal state machine of our own (issue 36;
// docs/design.md §14 "The terminal emulator", docs/dependencies.md §2):
// x/ansi's parser reads the child's bytes, and this package keeps the
// screen, the scrollback, the cursor and the modes.
//
// The grid is a ring of rows, so a full-screen scroll moves no cells: the
// row that leaves the top goes to the scrollback as it is, and once the
// scrollback is full its oldest row comes back as the new blank row. Cells
// are eight bytes: the character (a rune, or an index into a table of
// multi-rune grapheme clusters) and a style id into a table of interned
// styles (with the cell's link). Every table and every string a child
// controls is bounded (see tables.go); at a bound the tables are compacted to
// what the screen and scrollback still use.
//
// A Terminal is not safe for concurrent use: its owner (seats/terminal's
// Screen) holds its own lock around every call. It starts no goroutines and
// never blocks; replies to the child's queries go to the reply function
// given to New, synchronously, in order.
package emu
