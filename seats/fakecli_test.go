//go:build unix

package seats

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/pullcept/pullcept/room"
)

// FakeCLIEnv, set in an account's Env, makes the re-executed test binary act
// as a tiny generic CLI (STYLE "Fake CLIs in a real PTY by re-executing the
// test binary"). The name is outside config.ReservedEnvPrefix, so an account
// may carry it. See runFakeCLI for the flags the CLI takes.
const FakeCLIEnv = "SEATS_FAKE_CLI"

// fakeCLIProtocol is the MCP protocol the fake CLI pins in initialize: the
// revision Codex 0.169.0 speaks, so the sidecar sees the classic handshake
// (initialize, initialized, tools/list) the real CLIs use.
const fakeCLIProtocol = "2025-06-18"

// fakeCLIJoinWait bounds the fake CLI's MCP handshake with the sidecar: the
// sidecar answers at once; a -race binary on a loaded 2-core box needs a few
// seconds to start.
const fakeCLIJoinWait = 60 * time.Second

// pullceptBin is the pullcept executable built once for this test binary
// (PullceptBinary); TestMain removes its directory.
var pullceptBin struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// TestMain dispatches the fake CLI when the test binary is re-executed as
// a seat, and otherwise runs the tests and removes the pullcept binary
// PullceptBinary built. The fake CLI must end with a chosen status, and a
// helper process has no other way than os.Exit.
func TestMain(m *testing.M) {
	if os.Getenv(FakeCLIEnv) != "" {
		os.Exit(runFakeCLI(os.Args[1:]))
	}
	code := m.Run()
	if pullceptBin.dir != "" {
		_ = os.RemoveAll(pullceptBin.dir)
	}
	os.Exit(code)
}

// PullceptBinary builds github.com/pullcept/pullcept once per test binary
// (the sidecar and the status-line command run it) and returns its absolute
// path. It fails t when the build fails.
func PullceptBinary(t testing.TB) string {
	t.Helper()
	b := &pullceptBin
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "pullcept-seats-test-")
		if b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "pullcept")
		cmd := exec.Command("go", "build", "-o", b.path, "github.com/pullcept/pullcept")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("go build pullcept: %w\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatalf("%v", b.err)
	}
	return b.path
}

// FakeCLICommand is the absolute path of this test binary, the fake CLI's
// command.
func FakeCLICommand(t testing.TB) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatalf("test binary: %v", err)
	}
	return p
}

// FakeCLILines reads the lines file of a fake CLI started with -lines:
// every line it read from its terminal, in order.
func FakeCLILines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var line string
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			// The last line may be half-written while the CLI runs.
			break
		}
		out = append(out, line)
	}
	return out, sc.Err()
}

// runFakeCLI is the generic CLI the Manager tests and the e2e tests seat.
// Flags come first; the first word that is not a flag ends them and the
// rest is only recorded (so "resume {session_id}" can follow):
//
//	-argv FILE   write the command line (JSON list) to FILE first
//	-exit N      then exit with status N at once (a CLI that dies by itself)
//	-join        start the room's sidecar from ./.mcp.json as a CLI does
//	             (initialize, tools/list), so the seat joins and gets ready
//	-lines FILE  append every line read from the terminal (a JSON string
//	             per line)
//
// It prints "fake cli ready", then "got: <line>" for every line it reads;
// a line "exit N" ends it with status N; terminal EOF or SIGHUP/SIGTERM end
// it with 0.
func runFakeCLI(args []string) int {
	fs := flag.NewFlagSet("fakecli", flag.ContinueOnError)
	argvFile := fs.String("argv", "", "")
	exitNow := fs.Int("exit", -1, "")
	join := fs.Bool("join", false, "")
	linesFile := fs.String("lines", "", "")
	fs.SetOutput(os.Stdout)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *argvFile != "" {
		if err := writeJSONAtomic(*argvFile, os.Args); err != nil {
			fmt.Printf("argv: %v\n", err)
			return 3
		}
	}
	if *exitNow >= 0 {
		return *exitNow
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGHUP, syscall.SIGTERM)
	defer stop()
	if *join {
		c, err := joinRoom(ctx)
		if err != nil {
			fmt.Printf("join: %v\n", err)
			return 4
		}
		defer c.Close()
	}
	var lines io.Writer = io.Discard
	if *linesFile != "" {
		f, err := os.OpenFile(*linesFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Printf("lines: %v\n", err)
			return 3
		}
		defer f.Close()
		lines = f
	}
	fmt.Println("fake cli ready")
	read := make(chan string)
	go func() {
		defer close(read)
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case read <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return 0
		case line, ok := <-read:
			if !ok {
				return 0
			}
			b, _ := json.Marshal(line)
			if _, err := lines.Write(append(b, '\n')); err != nil {
				fmt.Printf("lines: %v\n", err)
				return 3
			}
			var code int
			if _, err := fmt.Sscanf(line, "exit %d", &code); err == nil {
				return code
			}
			fmt.Printf("got: %s\n", line)
		}
	}
}

// joinRoom starts the sidecar registered for this seat in ./.mcp.json (the
// entry whose PULLCEPT_ACCOUNT_ID and PULLCEPT_ROOM_ID match the launch) the
// way a CLI does, with mcp-go's stdio client, and lists its tools: the
// sidecar then joins the room and reports ready (DESIGN §7).
func joinRoom(ctx context.Context) (*client.Client, error) {
	b, err := os.ReadFile(".mcp.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf(".mcp.json: %w", err)
	}
	account, topic := os.Getenv(room.EnvLaunchedAs), os.Getenv(room.EnvRoomID)
	for key, e := range doc.MCPServers {
		if !strings.HasPrefix(key, "pullcept-room") || e.Env[room.EnvAccountID] != account || e.Env[room.EnvRoomID] != topic {
			continue
		}
		var env []string
		for k, v := range e.Env {
			env = append(env, k+"="+v)
		}
		c, err := client.NewStdioMCPClient(e.Command, env, e.Args...)
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", key, err)
		}
		cctx, cancel := context.WithTimeout(ctx, fakeCLIJoinWait)
		defer cancel()
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = fakeCLIProtocol
		req.Params.ClientInfo = mcp.Implementation{Name: "pullcept-fake-cli", Version: "1"}
		if _, err := c.Initialize(cctx, req); err != nil {
			_ = c.Close()
			return nil, fmt.Errorf("initialize %s: %w", key, err)
		}
		if _, err := c.ListTools(cctx, mcp.ListToolsRequest{}); err != nil {
			_ = c.Close()
			return nil, fmt.Errorf("tools/list %s: %w", key, err)
		}
		return c, nil
	}
	return nil, errors.New("no room entry for this seat in .mcp.json")
}

// writeJSONAtomic writes v as JSON to path through a temp file and a
// rename, so a reader never sees half a file.
func writeJSONAtomic(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
