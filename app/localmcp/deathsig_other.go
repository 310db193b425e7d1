//go:build unix && !linux

package localmcp

import "syscall"

// dieWithParent: only Linux has a parent-death signal; elsewhere a server
// that ignores its stdin closing outlives a Pullcept that crashed
// (docs/design.md §6 "Local MCP servers").
func dieWithParent(*syscall.SysProcAttr) {}
