package seats

import (
	"testing"
	"time"
)

// BenchmarkObserverOutput is what an observed seat's activity costs the
// PTY reader per read that brought output, inside a burst (the common
// case: one clock read, one uncontended lock, no allocation).
func BenchmarkObserverOutput(b *testing.B) {
	o := newObserver(time.Now, time.Now())
	o.output() // the burst began
	b.ReportAllocs()
	for b.Loop() {
		o.output()
	}
}
