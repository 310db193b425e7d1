package codex

// openNoBlockFlag is nothing on Windows: it has no FIFOs in the file
// system.
const openNoBlockFlag = 0
