//go:build !linux

package app

// hardenServer: Linux only (PR_SET_DUMPABLE); elsewhere the OS's own rules
// on reading another process's memory stand.
func hardenServer() error { return nil }
