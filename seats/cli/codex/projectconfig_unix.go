//go:build !windows

package codex

import "syscall"

// openNoBlockFlag opens the project config without waiting for a FIFO's
// writer (a planted FIFO is then refused as not a regular file).
const openNoBlockFlag = syscall.O_NONBLOCK
