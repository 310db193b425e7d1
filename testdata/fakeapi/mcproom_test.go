//go:build linux || darwin

package fakeapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The e2e tests register a tiny stdio MCP server with the real CLI: this
// test binary, re-executed with mcpControlEnv set. It serves one tool,
// say_to_room, and reports to the test over a loopback TCP connection (one
// JSON object per line): "tools_listed" once it answered tools/list, and
// "call" for each say_to_room call, which the test answers with the tool
// result text. It stands in for Pullcept's sidecar, which is written in
// parallel; the fake model is still the only fake part the CLIs see.

// mcpControlEnv carries the test's control address to the helper process.
const mcpControlEnv = "FAKEAPI_TEST_MCP_CONTROL"

// TestMain runs the helper MCP server instead of the tests when the
// process was started as one.
func TestMain(m *testing.M) {
	if addr := os.Getenv(mcpControlEnv); addr != "" {
		if err := serveRoomMCP(addr); err != nil {
			fmt.Fprintf(os.Stderr, "fakeapi test mcp: %v\n", err)
		}
		return
	}
	m.Run()
}

// mcpEvent is a helper → test line.
type mcpEvent struct {
	Event     string          `json:"event"` // "method", "tools_listed" or "call"
	ID        int             `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Protocol  string          `json:"protocol,omitempty"`
}

// mcpAnswer is a test → helper line: the result of call ID.
type mcpAnswer struct {
	ID      int    `json:"id"`
	Text    string `json:"text"`
	IsError bool   `json:"is_error,omitempty"`
}

// sayToRoomSchema mirrors docs/design.md §7: every argument optional, to a string
// or a list.
const sayToRoomSchema = `{"type":"object","properties":{
 "content":{"type":"string","description":"What to say. Omit to send the draft kept after a rejection."},
 "to":{"oneOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}],"description":"Addressees (display names)."},
 "last_seen":{"type":"string","description":"message_id of the newest post you have seen."}},
 "additionalProperties":false}`

// serveRoomMCP is the helper process: an mcp-go stdio server whose tool
// calls are answered by the test. It returns when stdin closes or the CLI
// signals it.
func serveRoomMCP(addr string) error {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return fmt.Errorf("dial control: %w", err)
	}
	defer conn.Close()
	var (
		wmu     sync.Mutex
		mu      sync.Mutex
		nextID  int
		waiting = map[int]chan mcpAnswer{}
	)
	send := func(ev mcpEvent) error {
		b, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		wmu.Lock()
		defer wmu.Unlock()
		_, err = conn.Write(append(b, '\n'))
		return err
	}
	readDone := make(chan struct{})
	go func() { // owner: serveRoomMCP; ends when the control connection closes
		defer close(readDone)
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(os.Stderr, "fakeapi test mcp: control reader panic: %v\n", p)
			}
		}()
		sc := bufio.NewScanner(conn)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			var a mcpAnswer
			if json.Unmarshal(sc.Bytes(), &a) != nil {
				continue
			}
			mu.Lock()
			ch := waiting[a.ID]
			delete(waiting, a.ID)
			mu.Unlock()
			if ch != nil {
				ch <- a
			}
		}
		mu.Lock()
		for id, ch := range waiting {
			close(ch)
			delete(waiting, id)
		}
		mu.Unlock()
	}()

	hooks := &server.Hooks{}
	hooks.AddBeforeAny(func(ctx context.Context, id any, method mcp.MCPMethod, message any) {
		ev := mcpEvent{Event: "method", Name: string(method)}
		if init, ok := message.(*mcp.InitializeRequest); ok {
			ev.Protocol = init.Params.ProtocolVersion
		}
		if err := send(ev); err != nil {
			fmt.Fprintf(os.Stderr, "fakeapi test mcp: %v\n", err)
		}
	})
	hooks.AddAfterListTools(func(ctx context.Context, id any, req *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
		if err := send(mcpEvent{Event: "tools_listed"}); err != nil {
			fmt.Fprintf(os.Stderr, "fakeapi test mcp: %v\n", err)
		}
	})
	s := server.NewMCPServer("pullcept-test-room", "0.0.1",
		server.WithInstructions("You are in a test room. Reply to [pullcept] posts with say_to_room; terminal output reaches nobody."),
		server.WithToolCapabilities(false),
		server.WithHooks(hooks),
		server.WithRecovery(),
	)
	s.AddTool(mcp.NewToolWithRawSchema(SayToRoom, "Say something to the room. The only way to speak.", json.RawMessage(sayToRoomSchema)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			args, err := json.Marshal(req.GetArguments())
			if err != nil {
				return nil, err
			}
			ch := make(chan mcpAnswer, 1)
			mu.Lock()
			nextID++
			id := nextID
			waiting[id] = ch
			mu.Unlock()
			if err := send(mcpEvent{Event: "call", ID: id, Name: req.Params.Name, Arguments: args}); err != nil {
				return mcp.NewToolResultError("room unreachable: " + err.Error()), nil
			}
			select {
			case a, ok := <-ch:
				if !ok {
					return mcp.NewToolResultError("room closed"), nil
				}
				if a.IsError {
					return mcp.NewToolResultError(a.Text), nil
				}
				return mcp.NewToolResultText(a.Text), nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	err = server.ServeStdio(s)
	conn.Close()
	<-readDone
	if err != nil {
		return fmt.Errorf("serve stdio: %w", err)
	}
	return nil
}

// roomCall is one say_to_room call the helper reported.
type roomCall struct {
	Name string
	Args SayArgs
	Raw  json.RawMessage
}

// roomMCP is the test side: it accepts helper connections, records events
// and answers calls with answer(n, call) (n counts calls from 1).
type roomMCP struct {
	t      *testing.T
	ln     net.Listener
	answer func(n int, c roomCall) mcpAnswer

	mu      sync.Mutex
	methods []string // MCP methods the CLI called, "initialize@<protocol>" for initialize
	listed  int
	calls   []roomCall
	changed chan struct{}
	conns   []net.Conn
	wg      sync.WaitGroup
}

// startRoomMCP listens on loopback and returns the controller; Cleanup
// closes it and waits for its goroutines.
func startRoomMCP(t *testing.T, answer func(n int, c roomCall) mcpAnswer) *roomMCP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("room mcp listen: %v", err)
	}
	r := &roomMCP{t: t, ln: ln, answer: answer, changed: make(chan struct{})}
	r.wg.Add(1)
	go r.accept()
	t.Cleanup(func() {
		ln.Close()
		r.mu.Lock()
		for _, c := range r.conns {
			c.Close()
		}
		r.mu.Unlock()
		r.wg.Wait()
	})
	return r
}

// serverEntry is the helper's MCP server command: this test binary, with
// the control address in its environment.
func (r *roomMCP) serverEntry(t *testing.T) (command string, env map[string]string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("test executable: %v", err)
	}
	return exe, map[string]string{mcpControlEnv: r.ln.Addr().String()}
}

func (r *roomMCP) accept() {
	defer r.wg.Done()
	defer r.recoverTo("accept")
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		r.mu.Lock()
		r.conns = append(r.conns, c)
		r.mu.Unlock()
		r.wg.Add(1)
		go r.serve(c)
	}
}

func (r *roomMCP) recoverTo(where string) {
	if p := recover(); p != nil {
		r.t.Errorf("room mcp %s panic: %v", where, p)
	}
}

func (r *roomMCP) serve(c net.Conn) {
	defer r.wg.Done()
	defer r.recoverTo("serve")
	defer c.Close()
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var ev mcpEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			r.t.Errorf("room mcp: bad event %q: %v", sc.Text(), err)
			continue
		}
		switch ev.Event {
		case "method":
			m := ev.Name
			if ev.Protocol != "" {
				m += "@" + ev.Protocol
			}
			r.mu.Lock()
			r.methods = append(r.methods, m)
			r.mu.Unlock()
		case "tools_listed":
			r.mu.Lock()
			r.listed++
			r.signal()
			r.mu.Unlock()
		case "call":
			call := roomCall{Name: ev.Name, Raw: ev.Arguments}
			if err := json.Unmarshal(ev.Arguments, &call.Args); err != nil {
				r.t.Errorf("room mcp: call arguments %s: %v", ev.Arguments, err)
			}
			r.mu.Lock()
			r.calls = append(r.calls, call)
			n := len(r.calls)
			r.mu.Unlock()
			a := r.answer(n, call)
			a.ID = ev.ID
			b, _ := json.Marshal(a)
			if _, err := c.Write(append(b, '\n')); err != nil {
				r.t.Errorf("room mcp: answer: %v", err)
			}
			r.mu.Lock()
			r.signal()
			r.mu.Unlock()
		}
	}
}

// signal wakes waiters; r.mu must be held.
func (r *roomMCP) signal() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// wait blocks until cond (called under r.mu) holds or ctx ends.
func (r *roomMCP) wait(ctx context.Context, what string, cond func() bool) {
	r.t.Helper()
	for {
		r.mu.Lock()
		ok, ch := cond(), r.changed
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-ctx.Done():
			r.t.Fatalf("room mcp: waiting for %s: %v", what, ctx.Err())
		}
	}
}

// calledMethods returns the MCP methods the CLI called so far.
func (r *roomMCP) calledMethods() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.methods...)
}

func (r *roomMCP) snapshot() []roomCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]roomCall(nil), r.calls...)
}
