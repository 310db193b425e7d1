//go:build !unix

package emu_test

// processCPU is not measured here: the benchmarks report wall time only.
func processCPU() int64 { return 0 }
