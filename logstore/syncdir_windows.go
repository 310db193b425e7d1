//go:build windows

package logstore

// syncDir is a no-op on Windows: a directory cannot be opened for
// FlushFileBuffers there, and NTFS journals the rename itself.
func syncDir(string) error { return nil }
