//go:build windows

package config

// SyncDir is a no-op on Windows: a directory cannot be opened for
// FlushFileBuffers there, and NTFS journals the rename itself.
func SyncDir(string) error { return nil }
