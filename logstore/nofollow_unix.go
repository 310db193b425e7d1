//go:build !windows

package logstore

import "syscall"

// noFollow makes opening a topic log fail when the log was replaced by a
// symbolic link: posts must not be appended to wherever it points.
const noFollow = syscall.O_NOFOLLOW

// nonBlock opens a FIFO without waiting for a writer (CopyAttachment
// checks the file is regular before reading; for a regular file the flag
// changes nothing).
const nonBlock = syscall.O_NONBLOCK
