//go:build windows

package character

// openNoBlockFlag is nothing on Windows: it has no FIFOs in the file
// system (named pipes live under \\.\pipe\).
const openNoBlockFlag = 0
