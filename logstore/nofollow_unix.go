//go:build !windows

package logstore

import "syscall"

// noFollow makes opening a topic log fail when the log was replaced by a
// symbolic link: posts must not be appended to wherever it points.
const noFollow = syscall.O_NOFOLLOW
