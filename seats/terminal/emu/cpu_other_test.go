//go:build !unix

package emu_test

// perfProcessCPU is not measured here: the benchmarks report wall time only.
func perfProcessCPU() int64 { return 0 }
