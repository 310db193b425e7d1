package localmcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// fakeEnv, set to a JSON fakeConfig, makes the test binary a scripted MCP
// stdio server instead of running the tests (TestMain).
const fakeEnv = "PULLCEPT_LOCALMCP_FAKE"

// fakeConfig scripts the fake server.
type fakeConfig struct {
	ExitAtOnce    *int                 `json:"exit_at_once,omitempty"`    // exit with this code before reading anything
	StderrBytes   int64                `json:"stderr_bytes,omitempty"`    // flood stderr first, then say "flood done"
	Silent        bool                 `json:"silent,omitempty"`          // never answer initialize
	NoChannel     bool                 `json:"no_channel,omitempty"`      // declare no claude/channel
	BadInit       bool                 `json:"bad_init,omitempty"`        // answer initialize with a string
	CloseStdout   bool                 `json:"close_stdout,omitempty"`    // after initialized, close stdout and stay
	Lines         []string             `json:"lines,omitempty"`           // raw stdout lines after initialized
	Flood         int                  `json:"flood,omitempty"`           // this many pushes after Lines, as fast as possible
	Events        map[string]fakeEvent `json:"events,omitempty"`          // get_event answers
	ExitAfterInit *int                 `json:"exit_after_init,omitempty"` // exit after the lines
	PrintEnv      []string             `json:"print_env,omitempty"`       // "env NAME=value" lines on stderr
	Stubborn      bool                 `json:"stubborn,omitempty"`        // keep running after stdin closes
	Child         bool                 `json:"child,omitempty"`           // start a sleeping grandchild ("child pid N" on stderr)
	Sleeper       bool                 `json:"sleeper,omitempty"`         // be that grandchild
	Escape        bool                 `json:"escape,omitempty"`          // start a sleeper in its own session holding stdout and stderr (escapeHook)
}

// escapeHook starts the Escape sleeper where the OS can (Linux tests).
var escapeHook func()

// fakeEvent is one get_event answer: the stored event's payload, or no
// answer at all (Hold).
type fakeEvent struct {
	Payload json.RawMessage `json:"payload,omitempty"`
	Hold    bool            `json:"hold,omitempty"`
}

func TestMain(m *testing.M) {
	if cfg := os.Getenv(fakeEnv); cfg != "" {
		os.Exit(fakeMain(cfg))
	}
	os.Exit(m.Run())
}

// fakeSpec is a Spec that runs the fake server scripted by cfg.
func fakeSpec(t testing.TB, cfg fakeConfig) Spec {
	t.Helper()
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A -race fake would otherwise wait 1 s at exit (the race runtime's atexit_sleep_ms).
	return Spec{Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: []string{fakeEnv + "=" + string(b), "GORACE=atexit_sleep_ms=0"}}
}

// pushLine is a channel push as the bridge writes it (meta.message_id is
// the event id; "" leaves the id out).
func pushLine(id, content string) string {
	meta := map[string]any{"chat_id": "github", "user": "octocat", "ts": "2026-12-01T00:00:00Z"}
	if id != "" {
		meta["message_id"] = id
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": ChannelMethod,
		"params": map[string]any{"content": content, "meta": meta}})
	return string(b)
}

// fakeMain is the scripted server.
func fakeMain(raw string) int {
	var cfg fakeConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bad fake config:", err)
		return 2
	}
	switch {
	case cfg.Sleeper:
		time.Sleep(time.Hour) // the grandchild: lives until killed
		return 0
	case cfg.ExitAtOnce != nil:
		fmt.Fprintln(os.Stderr, "exiting at once")
		return *cfg.ExitAtOnce
	}
	for _, name := range cfg.PrintEnv {
		fmt.Fprintf(os.Stderr, "env %s=%s\n", name, os.Getenv(name))
	}
	if wd, err := os.Getwd(); err == nil {
		fmt.Fprintln(os.Stderr, "cwd "+wd)
	}
	if cfg.Child {
		startSleeper()
	}
	if cfg.Escape && escapeHook != nil {
		escapeHook()
	}
	floodStderr(cfg.StderrBytes)
	out := bufio.NewWriter(os.Stdout)
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if cfg.Stubborn {
				fmt.Fprintln(os.Stderr, "stdin closed; staying")
				time.Sleep(time.Hour) // until the tree is killed
			}
			return 0
		}
		if code, exit := fakeHandle(&cfg, line, out); exit {
			return code
		}
		_ = out.Flush()
	}
}

// fakeHandle answers one message; exit reports the server should end.
func fakeHandle(cfg *fakeConfig, line []byte, out *bufio.Writer) (code int, exit bool) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			ProtocolVersion string         `json:"protocolVersion"`
			Name            string         `json:"name"`
			Arguments       map[string]any `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return 0, false
	}
	switch msg.Method {
	case "initialize":
		if cfg.Silent {
			return 0, false
		}
		if cfg.BadInit {
			fakeAnswer(out, msg.ID, "nonsense")
			return 0, false
		}
		caps := map[string]any{"tools": map[string]any{}}
		if !cfg.NoChannel {
			caps["experimental"] = map[string]any{"claude/channel": map[string]any{}}
		}
		fakeAnswer(out, msg.ID, map[string]any{"protocolVersion": msg.Params.ProtocolVersion, "capabilities": caps,
			"serverInfo": map[string]any{"name": "fake-bridge", "version": "0.0.1"}})
	case "notifications/initialized":
		for _, l := range cfg.Lines {
			fmt.Fprintln(out, l)
		}
		for i := range cfg.Flood {
			fmt.Fprintln(out, pushLine(fmt.Sprintf("flood-%d", i), fmt.Sprintf("[push] o/r\nflood %d", i)))
		}
		if cfg.ExitAfterInit != nil {
			_ = out.Flush()
			return *cfg.ExitAfterInit, true
		}
		if cfg.CloseStdout {
			_ = out.Flush()
			_ = os.Stdout.Close()
			fmt.Fprintln(os.Stderr, "stdout closed; staying")
			time.Sleep(time.Hour) // until the tree is killed
		}
	case "tools/call":
		id, _ := msg.Params.Arguments["event_id"].(string)
		fmt.Fprintf(os.Stderr, "tools/call %s %s\n", msg.Params.Name, id)
		fakeTool(cfg, msg.ID, msg.Params.Name, id, out)
	case "ping":
		fakeAnswer(out, msg.ID, map[string]any{})
	}
	return 0, false
}

// fakeTool answers get_event from cfg.Events, anything else with an error.
func fakeTool(cfg *fakeConfig, id json.RawMessage, name, eventID string, out *bufio.Writer) {
	ev, ok := cfg.Events[eventID]
	switch {
	case name != "get_event" || !ok:
		fakeAnswer(out, id, map[string]any{"isError": true,
			"content": []any{map[string]any{"type": "text", "text": "Event " + eventID + " not found"}}})
	case ev.Hold:
	default:
		stored, _ := json.MarshalIndent(map[string]any{"id": eventID, "type": "x", "processed": false,
			"received_at": "2026-12-01T00:00:00Z", "payload": ev.Payload}, "", "  ")
		fakeAnswer(out, id, map[string]any{"content": []any{map[string]any{"type": "text", "text": string(stored)}}})
	}
}

func fakeAnswer(out *bufio.Writer, id json.RawMessage, result any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	_, _ = out.Write(append(b, '\n'))
}

// floodStderr writes n bytes to stderr: 5000-byte lines (over the cap) and
// short ones, then "flood done".
func floodStderr(n int64) {
	if n <= 0 {
		return
	}
	chunk := []byte(strings.Repeat("x", 5000) + "\n" + strings.Repeat("short line of stderr flood\n", 50))
	w := bufio.NewWriterSize(os.Stderr, 1<<20)
	for written := int64(0); written < n; written += int64(len(chunk)) {
		_, _ = w.Write(chunk)
	}
	_, _ = w.WriteString("flood done\n")
	_ = w.Flush()
}

// startSleeper starts the grandchild in the server's process group.
func startSleeper() {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fakeEnv+`={"sleeper":true}`)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "child failed:", err)
		return
	}
	fmt.Fprintf(os.Stderr, "child pid %d\n", cmd.Process.Pid)
}
