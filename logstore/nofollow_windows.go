//go:build windows

package logstore

// noFollow is 0 on Windows: os.OpenFile has no O_NOFOLLOW there, and
// creating a symbolic link needs a privilege a planted link's author
// rarely has.
const noFollow = 0

// nonBlock is 0 on Windows: opening a named pipe's client end does not
// wait for a writer the way a FIFO does on Unix.
const nonBlock = 0
