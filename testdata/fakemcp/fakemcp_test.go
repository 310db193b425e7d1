package fakemcp

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

func TestMain(m *testing.M) { os.Exit(Run(m)) }

// stdio is a started fake with its stdin and its stdout lines.
type stdio struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
}

// start runs the fake scripted by cfg; it ends with the test.
func start(t *testing.T, cfg Config) *stdio {
	t.Helper()
	l := Command(t, cfg)
	cmd := exec.Command(l.Command, l.Args...)
	cmd.Env = append(os.Environ(), l.Env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &stdio{t: t, in: in, lines: make(chan string, 64)}
	go func() { // ends at the fake's EOF
		defer close(s.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		_ = in.Close()
		_ = cmd.Wait()
	})
	return s
}

func (s *stdio) send(msg string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, msg+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

// next is the fake's next stdout line.
func (s *stdio) next() string {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatal("the fake's stdout ended")
		}
		return l
	case <-time.After(testkit.Wait):
		s.t.Fatal("no line from the fake")
	}
	return ""
}

// getEvent is a tools/call of get_event for id as JSON-RPC call n.
func getEvent(n int, id string) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": n, "method": "tools/call",
		"params": map[string]any{"name": "get_event", "arguments": map[string]any{"event_id": id}}})
	return string(b)
}

// TestControlPushesAndEvents: initialize declares claude/channel under the
// configured name; pushes come out on stdout in the order the test made
// them, each after Push returned; get_event answers from a pushed event,
// the events file and the config, a delayed answer after a quicker one
// asked later.
func TestControlPushesAndEvents(t *testing.T) {
	ctl := NewControl(t)
	file := filepath.Join(t.TempDir(), "events.json")
	if err := os.WriteFile(file, []byte(`{"F":{"payload":{"from":"file"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := start(t, Config{Name: "scripted", Version: "9", Control: ctl.Addr(), EventsFile: file,
		Events: map[string]Event{"C": {Payload: json.RawMessage(`{"from":"config"}`)}}})
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`)
	if l := s.next(); !strings.Contains(l, `"claude/channel":{}`) || !strings.Contains(l, `"serverInfo":{"name":"scripted","version":"9"}`) {
		t.Fatalf("initialize answer %s", l)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if pid := ctl.Server(); pid <= 0 {
		t.Fatalf("pid %d", pid)
	}
	ctl.Push(Push{ID: "P", Content: "[push] o/r", Event: &Event{Payload: json.RawMessage(`{"from":"push"}`), DelayMS: 300}})
	ctl.Line(`{"jsonrpc":"2.0","method":"raw"}`)
	if l := s.next(); l != PushLine("P", "[push] o/r") {
		t.Errorf("push line %s", l)
	}
	if l := s.next(); l != `{"jsonrpc":"2.0","method":"raw"}` {
		t.Errorf("raw line %s", l)
	}
	s.send(getEvent(2, "P")) // delayed
	s.send(getEvent(3, "F"))
	s.send(getEvent(4, "C"))
	s.send(getEvent(5, "none"))
	want := []string{`"id":3`, `\"from\": \"file\"`, `"id":4`, `\"from\": \"config\"`, `"id":5`, `Event none not found`, `"id":2`, `\"from\": \"push\"`}
	for i := 0; i < len(want); i += 2 {
		if l := s.next(); !strings.Contains(l, want[i]) || !strings.Contains(l, want[i+1]) {
			t.Errorf("answer %d: %s, want %s and %s", i/2, l, want[i], want[i+1])
		}
	}
}
