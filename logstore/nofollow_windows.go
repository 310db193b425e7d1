//go:build windows

package logstore

// noFollow is 0 on Windows: os.OpenFile has no O_NOFOLLOW there, and
// creating a symbolic link needs a privilege a planted link's author
// rarely has.
const noFollow = 0
