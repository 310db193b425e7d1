package emu_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/pullcept/pullcept/seats/terminal"
	"github.com/pullcept/pullcept/seats/terminal/emu"
	"github.com/pullcept/pullcept/testdata/bench"
)

// Benchmarks of emu and of terminal.Screen (emu behind its lock; until issue
// 36, x/vt behind a mirror) on the same bytes, at make compare's 200×50 with
// the seats' scrollback (terminal.ScrollbackLines), fed in Pump's 32 KiB
// reads:
//
//	go test ./seats/terminal/emu/ -run '^$' -bench . -count 6 | tee new.txt
//	benchstat -col /impl new.txt
//
// mixed is make compare's 50 MB stream (testdata/bench WriteStream), flood
// its line flood (16 MB), recorded the recorded Claude Code and Codex
// streams; all with the "\r\n" line ends a PTY delivers.

const (
	perfCols, perfRows = 200, 50
	perfScrollback     = terminal.ScrollbackLines
	perfChunk          = 32 << 10
)

var (
	perfOnce sync.Once
	perfData map[string][]byte
)

func perfStreams(b *testing.B) map[string][]byte {
	perfOnce.Do(func() {
		var mixed, flood bytes.Buffer
		if _, _, err := bench.WriteStream(&mixed, 50<<20); err != nil {
			panic(err)
		}
		if _, err := bench.WriteLineFlood(&flood, 16<<20); err != nil {
			panic(err)
		}
		var rec []byte
		files, _ := filepath.Glob("../testdata/pty/*.ansi")
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				panic(err)
			}
			rec = append(rec, data...)
		}
		rec = bytes.Repeat(rec, 64)
		crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
		perfData = map[string][]byte{"mixed": crlf(mixed.Bytes()), "flood": crlf(flood.Bytes()), "recorded": rec}
	})
	return perfData
}

// reportPerfCPU adds the CPU time per MB since cpu0 (perfProcessCPU) to b's
// figures: on a busy machine the wall time (MB/s) depends on the load, the
// CPU time much less.
func reportPerfCPU(b *testing.B, cpu0 int64, bytes int) {
	if cpu := perfProcessCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu)/1e6/(float64(b.N)*float64(bytes)/1e6), "cpu-ms/MB")
	}
}

func BenchmarkWrite(b *testing.B) {
	for _, name := range []string{"mixed", "flood", "recorded"} {
		b.Run("stream="+name+"/impl=emu", func(b *testing.B) {
			data := perfStreams(b)[name]
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu0 := perfProcessCPU()
			for b.Loop() {
				tm := emu.New(perfCols, perfRows, perfScrollback, nil)
				for off := 0; off < len(data); off += perfChunk {
					_, _ = tm.Write(data[off:min(off+perfChunk, len(data))])
				}
				tm.Flush()
			}
			reportPerfCPU(b, cpu0, len(data))
		})
		b.Run("stream="+name+"/impl=screen", func(b *testing.B) {
			data := perfStreams(b)[name]
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu0 := perfProcessCPU()
			defer func() { reportPerfCPU(b, cpu0, len(data)) }()
			for b.Loop() {
				s, err := terminal.NewScreen(perfCols, perfRows, nil)
				if err != nil {
					b.Fatal(err)
				}
				for off := 0; off < len(data); off += perfChunk {
					_, _ = s.Write(data[off:min(off+perfChunk, len(data))])
				}
				s.Flush()
				_ = s.Close()
			}
		})
	}
}

// BenchmarkRender is a 200×50 pane's redraw: every row rendered.
func BenchmarkRender(b *testing.B) {
	data := perfStreams(b)["mixed"][:4<<20]
	tm := emu.New(perfCols, perfRows, perfScrollback, nil)
	_, _ = tm.Write(data)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		for y := range perfRows {
			buf = tm.RenderRow(y, buf[:0])
		}
	}
}

// BenchmarkParse is x/ansi's two ways to read a stream, with nothing done
// for what they read: the Parser with a handler (what emu uses) and
// DecodeSequence (which also cuts text into grapheme clusters).
func BenchmarkParse(b *testing.B) {
	for _, name := range []string{"mixed", "flood"} {
		data := perfStreams(b)[name]
		b.Run("stream="+name+"/how=parser", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			cpu0 := perfProcessCPU()
			defer func() { reportPerfCPU(b, cpu0, len(data)) }()
			p := ansi.NewParser()
			var n int
			p.SetHandler(ansi.Handler{
				Print:     func(rune) { n++ },
				Execute:   func(byte) { n++ },
				HandleCsi: func(ansi.Cmd, ansi.Params) { n++ },
				HandleEsc: func(ansi.Cmd) { n++ },
				HandleOsc: func(int, []byte) { n++ },
			})
			for b.Loop() {
				for _, c := range data {
					p.Advance(c)
				}
			}
		})
		b.Run("stream="+name+"/how=decode", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			cpu0 := perfProcessCPU()
			defer func() { reportPerfCPU(b, cpu0, len(data)) }()
			p := ansi.NewParser()
			for b.Loop() {
				var state byte
				for in := data; len(in) > 0; {
					_, _, n, s := ansi.DecodeSequence(in, state, p)
					state = s
					in = in[n:]
				}
			}
		})
	}
}

// TestScrollbackMemory: a terminal at 200 columns with 10 000 lines of
// full-width coloured scrollback stays under scrollbackCap.
func TestScrollbackMemory(t *testing.T) {
	const scrollbackCap = 20 << 20
	line := bytes.Repeat([]byte("\x1b[38;2;10;20;30mab\x1b[48;5;17mcd\x1b[m日本"), 200/6+1)
	line = append(line, "\r\n"...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tm := emu.New(200, 50, 10000, nil)
	for range 10050 {
		_, _ = tm.Write(line)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if tm.ScrollbackLen() != 10000 {
		t.Fatalf("scrollback %d", tm.ScrollbackLen())
	}
	used := after.HeapAlloc - before.HeapAlloc
	t.Logf("10 000 lines × 200 columns: %.1f MB", float64(used)/(1<<20))
	if used > scrollbackCap {
		t.Errorf("%d bytes, over %d", used, scrollbackCap)
	}
	runtime.KeepAlive(tm)
}

// BenchmarkHostileStyles is a child printing every character in a colour
// of its own (20 MB): the style table fills and is compacted or falls back
// (tables.go) while a 10 000-line scrollback fills with styled cells.
func BenchmarkHostileStyles(b *testing.B) {
	var s strings.Builder
	r := rand.New(rand.NewPCG(1, 2))
	for s.Len() < 20<<20 {
		fmt.Fprintf(&s, "\x1b[38;2;%d;%d;%dmx", r.IntN(256), r.IntN(256), r.IntN(256))
		if r.IntN(100) == 0 {
			s.WriteString("\r\n")
		}
	}
	data := []byte(s.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := perfProcessCPU()
	for b.Loop() {
		tm := emu.New(perfCols, perfRows, 10000, nil)
		for off := 0; off < len(data); off += perfChunk {
			_, _ = tm.Write(data[off:min(off+perfChunk, len(data))])
		}
	}
	reportPerfCPU(b, cpu0, len(data))
}
