package pty

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkSeatStart is the cost of a seat's namespaces (docs/design.md
// §16): a trivial child (/bin/true) started in a PTY and waited for,
// without namespaces, and in them with this test binary or a real pullcept
// binary (built once; its package inits run in every start) as the init.
// start-p50/p95 is until Start returns (the init said "ok": the child
// runs); cycle-p50/p95 until Wait returns.
func BenchmarkSeatStart(b *testing.B) {
	dir := b.TempDir()
	b.Run("plain", func(b *testing.B) { benchStart(b, dir, nil) })
	if got := Probe(os.Args[0]); !got.Isolated {
		b.Skipf("namespaces: %s", got.Reason)
	}
	b.Run("isolated-testbinary-init", func(b *testing.B) { benchStart(b, dir, &Isolate{Init: os.Args[0]}) })
	bin := filepath.Join(dir, "pullcept")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/pullcept/pullcept").CombinedOutput(); err != nil {
		b.Logf("no pullcept binary (%v): %s", err, out)
		return
	}
	b.Run("isolated-pullcept-init", func(b *testing.B) { benchStart(b, dir, &Isolate{Init: bin}) })
}

func benchStart(b *testing.B, dir string, iso *Isolate) {
	var starts, cycles []time.Duration
	for b.Loop() {
		t0 := time.Now()
		p, err := Start(Options{Argv: []string{"/bin/true"}, Dir: dir, Env: []string{"PATH=/usr/bin:/bin"}, Isolate: iso})
		if err != nil {
			b.Fatal(err)
		}
		starts = append(starts, time.Since(t0))
		if code, err := p.Wait(); code != 0 || err != nil {
			b.Fatalf("exit %d, %v", code, err)
		}
		cycles = append(cycles, time.Since(t0))
		_ = p.Close()
	}
	report := func(name string, ds []time.Duration) {
		slices.Sort(ds)
		at := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))].Microseconds()) / 1000 }
		b.ReportMetric(at(0.5), name+"-p50-ms")
		b.ReportMetric(at(0.95), name+"-p95-ms")
	}
	report("start", starts)
	report("cycle", cycles)
	b.ReportMetric(0, "ns/op") // the percentiles say it
}
