//go:build unix

package seats

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestCodexSeatTail: a Codex seat's rollout reads store what it says in
// the seat (SeatInfo) and emit SeatUpdated only when something shown
// changed; the seat takes no hooks.
func TestCodexSeatTail(t *testing.T) {
	m, s, _, events := reportRig(t, config.KindCodexCLI)
	if m.Reported("t", "cc", hookReport("Stop", "")) {
		t.Fatal("a Codex seat took a hook")
	}
	// updates counts the SeatUpdated events so far: a marker notice sent
	// after them arrives after them (the stream keeps the order).
	marks := 0
	updates := func() int {
		marks++
		mark := fmt.Sprint("mark ", marks)
		m.emit(SeatNotice{Text: mark})
		events.wait(t, mark, func(e Event) bool { n, ok := e.(SeatNotice); return ok && n.Text == mark })
		n := 0
		for _, e := range events.snapshot() {
			if _, ok := e.(SeatUpdated); ok {
				n++
			}
		}
		return n
	}
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	lines := rolloutLines(t, realRollout)
	first := slices.IndexFunc(lines, func(l []byte) bool { return bytes.Contains(l, []byte(`"type":"task_complete"`)) })
	tail, rep := cli.NewTail(path, 0), codexReport{}
	r, h := &codexRun{a: newCodexAdapter(time.Second, nil)}, seatHandle{m: m, s: s}
	appendFile(t, path, string(bytes.Join(lines[:first], []byte("\n")))+"\n")
	if n := r.readRollout(h, tail, &rep); n != first {
		t.Fatalf("read %d lines, want %d", n, first)
	}
	if in := s.info(); in.Usage.Context == nil || *in.Usage.Context != 7 || in.Usage.Effort != "high" || in.Activity.Kind != cli.ActivityThinking {
		t.Fatalf("after the first turn's lines: %+v, %+v", in.Usage, in.Activity)
	}
	if n := updates(); n != 1 {
		t.Fatalf("%d SeatUpdated for one read, want 1", n)
	}
	appendFile(t, path, string(realLine(t, "token_usage_record", 0))+"\nnot json\n"+string(realLine(t, "token_count", 1))+"\n")
	if n := r.readRollout(h, tail, &rep); n != 3 || updates() != 1 {
		t.Fatalf("lines that change nothing shown: %d read, SeatUpdated sent", n)
	}
	if r.readRollout(h, tail, &rep) != 0 {
		t.Fatal("an unchanged rollout gave lines")
	}
	appendFile(t, path, string(lines[first])+"\n")
	if r.readRollout(h, tail, &rep); s.info().Activity.Kind != cli.ActivityIdle || updates() != 2 {
		t.Fatalf("after task_complete: %+v", s.info().Activity)
	}
}

// TestCodexSeatTailEnds: the tail goroutine reads what is appended and ends
// with its seat, after a last read of the lines written before the exit.
func TestCodexSeatTailEnds(t *testing.T) {
	m, s, _, _ := reportRig(t, config.KindCodexCLI)
	r, h := &codexRun{a: newCodexAdapter(5*time.Millisecond, nil)}, seatHandle{m: m, s: s}
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	appendFile(t, path, "")
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		r.tailRollout(h, cli.NewTail(path, 0), codexReport{})
	}()
	appendFile(t, path, string(realLine(t, "turn_context", 0))+"\n")
	testkit.Eventually(t, "the model shown", func() bool { return s.info().Usage.Model == "gpt-5.5" })
	appendFile(t, path, string(realLine(t, "task_complete", 0))+"\n")
	close(s.done)
	select {
	case <-ended:
	case <-time.After(managerWait):
		t.Fatal("the tail outlived its seat")
	}
	if a := s.info().Activity; a.Kind != cli.ActivityIdle {
		t.Fatalf("activity after the exit = %+v, want idle (the last read)", a)
	}
}
