//go:build unix

package emu_test

import "syscall"

// perfProcessCPU is the CPU time the process has used (user and system, every
// thread: the garbage collector's work counts too), in nanoseconds. The
// machines these benchmarks run on are shared, so wall time says little.
func perfProcessCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
