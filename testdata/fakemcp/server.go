package fakemcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// server is the running fake: its config, its stdout (shared by the stdin
// loop, the control reader and the delayed answers) and the events pushed
// through the Control.
type server struct {
	cfg Config

	mu     sync.Mutex // guards out and pushed
	out    *bufio.Writer
	pushed map[string]Event
}

// writeLines writes lines to stdout and flushes, under the lock: a line is
// never interleaved with another writer's.
func (s *server) writeLines(lines ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range lines {
		if _, err := s.out.WriteString(l + "\n"); err != nil {
			return err
		}
	}
	return s.out.Flush()
}

// Main is the scripted server, configured by Env. It returns the exit
// status.
func Main() int {
	var cfg Config
	if err := json.Unmarshal([]byte(os.Getenv(Env)), &cfg); err != nil {
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
		startSleeper(false)
	}
	if cfg.Escape {
		startSleeper(true)
	}
	floodStderr(cfg.StderrBytes)
	s := &server{cfg: cfg, out: bufio.NewWriter(os.Stdout), pushed: map[string]Event{}}
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
		if code, exit := s.handle(line); exit {
			return code
		}
	}
}

// message is what the server reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string         `json:"protocolVersion"`
		Name            string         `json:"name"`
		Arguments       map[string]any `json:"arguments"`
	} `json:"params"`
}

// handle answers one message; exit reports the server should end.
func (s *server) handle(line []byte) (code int, exit bool) {
	var msg message
	if json.Unmarshal(line, &msg) != nil {
		return 0, false
	}
	switch msg.Method {
	case "initialize":
		s.initialize(msg)
	case "notifications/initialized":
		return s.initialized()
	case "tools/call":
		id, _ := msg.Params.Arguments["event_id"].(string)
		fmt.Fprintf(os.Stderr, "tools/call %s %s\n", msg.Params.Name, id)
		s.tool(msg.ID, msg.Params.Name, id)
	case "ping":
		s.answer(msg.ID, map[string]any{})
	}
	return 0, false
}

// initialize answers initialize as scripted.
func (s *server) initialize(msg message) {
	switch {
	case s.cfg.Silent:
		return
	case s.cfg.BadInit:
		s.answer(msg.ID, "nonsense")
		return
	}
	caps := map[string]any{"tools": map[string]any{}}
	if !s.cfg.NoChannel {
		caps["experimental"] = map[string]any{"claude/channel": map[string]any{}}
	}
	name, version := s.cfg.Name, s.cfg.Version
	if name == "" {
		name = DefaultName
	}
	if version == "" {
		version = DefaultVersion
	}
	s.answer(msg.ID, map[string]any{"protocolVersion": msg.Params.ProtocolVersion, "capabilities": caps,
		"serverInfo": map[string]any{"name": name, "version": version}})
}

// flood writes Config.Flood pushes, one line at a time (a flood of 16 KB
// pushes would be hundreds of MB held at once), after Config.FloodAfter
// exists when set. The writes stop at the first error.
func (s *server) flood() {
	for s.cfg.FloodAfter != "" {
		if _, err := os.Stat(s.cfg.FloodAfter); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond) // a helper process polling a file the test writes
	}
	pad := ""
	if s.cfg.FloodBytes > 0 {
		pad = "\n" + strings.Repeat("x", s.cfg.FloodBytes)
	}
	for i := range s.cfg.Flood {
		content := fmt.Sprintf("[push] o/r\nflood %d", i)
		if pad != "" {
			content = (content + pad)[:max(s.cfg.FloodBytes, len(content))]
		}
		if s.writeLines(PushLine(fmt.Sprintf("flood-%d", i), content)) != nil {
			return
		}
	}
	fmt.Fprintln(os.Stderr, "push flood done")
}

// initialized writes the scripted lines and pushes, dials the Control,
// and exits or closes stdout when told to.
func (s *server) initialized() (code int, exit bool) {
	_ = s.writeLines(s.cfg.Lines...)
	if s.cfg.FloodAfter != "" {
		go s.flood()
	} else {
		s.flood()
	}
	if s.cfg.Control != "" {
		go s.control(s.cfg.Control)
	}
	if s.cfg.ExitAfterInit != nil {
		return *s.cfg.ExitAfterInit, true
	}
	if s.cfg.CloseStdout {
		s.mu.Lock()
		_ = os.Stdout.Close()
		s.mu.Unlock()
		fmt.Fprintln(os.Stderr, "stdout closed; staying")
		time.Sleep(time.Hour) // until the tree is killed
	}
	return 0, false
}

// event is get_event's answer for id: a pushed event, then EventsFile's,
// then Events'.
func (s *server) event(id string) (Event, bool) {
	s.mu.Lock()
	ev, ok := s.pushed[id]
	s.mu.Unlock()
	if ok {
		return ev, true
	}
	if s.cfg.EventsFile != "" {
		var file map[string]Event
		b, err := os.ReadFile(s.cfg.EventsFile)
		if err == nil {
			err = json.Unmarshal(b, &file)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "events file:", err)
		}
		if ev, ok := file[id]; ok {
			return ev, true
		}
	}
	ev, ok = s.cfg.Events[id]
	return ev, ok
}

// tool answers get_event from the scripted events, anything else with an
// error. A delayed answer is written by a timer; the stdin loop goes on.
func (s *server) tool(callID json.RawMessage, name, eventID string) {
	ev, ok := s.event(eventID)
	switch {
	case name != "get_event" || !ok:
		s.answer(callID, map[string]any{"isError": true,
			"content": []any{map[string]any{"type": "text", "text": "Event " + eventID + " not found"}}})
		return
	case ev.Hold:
		return
	}
	stored, _ := json.MarshalIndent(map[string]any{"id": eventID, "type": "x", "processed": false,
		"received_at": "2026-12-01T00:00:00Z", "payload": ev.Payload}, "", "  ")
	result := map[string]any{"content": []any{map[string]any{"type": "text", "text": string(stored)}}}
	if ev.DelayMS <= 0 {
		s.answer(callID, result)
		return
	}
	time.AfterFunc(time.Duration(ev.DelayMS)*time.Millisecond, func() {
		fmt.Fprintf(os.Stderr, "answering get_event %s late\n", eventID)
		s.answer(callID, result)
	})
}

func (s *server) answer(id json.RawMessage, result any) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	_ = s.writeLines(string(b))
}

// floodStderr writes n bytes to stderr: 5000-byte lines (over the
// supervisor's cap) and short ones, then "flood done".
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

// startSleeper starts a sleeping grandchild: in the server's process group
// (escape false), or in a session of its own holding the server's stdout
// and stderr (escape true, where the OS can: detach). Its pid goes to
// stderr as "child pid N".
func startSleeper(escape bool) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), Env+`={"sleeper":true}`)
	if escape {
		if !detach(cmd) {
			fmt.Fprintln(os.Stderr, "escape: not on this OS")
			return
		}
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "child failed:", err)
		return
	}
	fmt.Fprintf(os.Stderr, "child pid %d\n", cmd.Process.Pid)
}
