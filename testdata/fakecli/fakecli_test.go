package fakecli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
)

func TestMain(m *testing.M) { os.Exit(Run(m)) }

// TestEchoRecordsLinesAndExits: the CLI prints Ready, answers each line,
// records every line it read (the "exit" line too) and ends with the status
// the line asked for.
func TestEchoRecordsLinesAndExits(t *testing.T) {
	t.Parallel()
	linesFile := filepath.Join(t.TempDir(), "lines.jsonl")
	var out strings.Builder
	code := run(context.Background(), []string{"-lines", linesFile}, strings.NewReader("hello\n日本語\nexit 7\nnever read\n"), &out)
	if code != 7 {
		t.Errorf("exit status %d, want 7", code)
	}
	if want := Ready + "\ngot: hello\ngot: 日本語\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
	got, err := Lines(linesFile)
	if err != nil || !slices.Equal(got, []string{"hello", "日本語", "exit 7"}) {
		t.Errorf("Lines = %q, %v", got, err)
	}
}

// TestEOFAndCancelEndWithZero: terminal EOF and a signal (ctx) end the CLI
// with status 0.
func TestEOFAndCancelEndWithZero(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	if code := run(context.Background(), nil, strings.NewReader("a\n"), &out); code != 0 {
		t.Errorf("at EOF: status %d, want 0", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if code := run(ctx, nil, r, &out); code != 0 {
		t.Errorf("after a signal: status %d, want 0", code)
	}
}

// TestStayOutlivesEOF: with -stay terminal EOF does not end the CLI; the
// signal does, with 0, and "exit N" still ends it with N.
func TestStayOutlivesEOF(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	eof := make(chan struct{})
	ended := make(chan int, 1)
	go func() {
		ended <- run(ctx, []string{"-stay"}, &eofReader{Reader: strings.NewReader("a\n"), eof: eof}, io.Discard)
	}()
	<-eof
	// Without -stay run returns within microseconds of the EOF.
	select {
	case code := <-ended:
		t.Fatalf("-stay ended at EOF with %d", code)
	case <-time.After(200 * time.Millisecond):
	}
	cancel()
	if code := <-ended; code != 0 {
		t.Errorf("after a signal: status %d, want 0", code)
	}
	if code := run(context.Background(), []string{"-stay"}, strings.NewReader("exit 7\n"), io.Discard); code != 7 {
		t.Errorf("exit 7 with -stay: status %d", code)
	}
}

// eofReader closes eof when its Reader reaches the end.
type eofReader struct {
	io.Reader
	eof  chan struct{}
	once sync.Once
}

func (r *eofReader) Read(b []byte) (int, error) {
	n, err := r.Reader.Read(b)
	if err == io.EOF {
		r.once.Do(func() { close(r.eof) })
	}
	return n, err
}

// TestArgvAndExitAtOnce: -argv records the command line before -exit ends
// the CLI; words after the flags are kept, not parsed.
func TestArgvAndExitAtOnce(t *testing.T) {
	t.Parallel()
	argvFile := filepath.Join(t.TempDir(), "argv.json")
	var out strings.Builder
	if code := run(context.Background(), []string{"-argv", argvFile, "-exit", "5", "resume", "-x"}, strings.NewReader(""), &out); code != 5 {
		t.Fatalf("status %d, want 5 (%s)", code, out.String())
	}
	b, err := os.ReadFile(argvFile)
	if err != nil {
		t.Fatal(err)
	}
	var argv []string
	if err := json.Unmarshal(b, &argv); err != nil || !slices.Equal(argv, os.Args) {
		t.Errorf("argv file %s, want %q", b, os.Args)
	}
	if out.String() != "" {
		t.Errorf("printed %q before exiting, want nothing", out.String())
	}
	if code := run(context.Background(), []string{"-exit", "x"}, strings.NewReader(""), &out); code != 2 {
		t.Errorf("bad flag: status %d, want 2", code)
	}
}

// TestRoomServerPicksThisSeat: the join uses the pullcept-room entry of the
// launch's account and topic, never another seat's or a foreign server.
func TestRoomServerPicksThisSeat(t *testing.T) {
	t.Parallel()
	entry := func(account, topic string) mcpServer {
		return mcpServer{Command: "pullcept", Args: []string{"sidecar"},
			Env: map[string]string{room.EnvAccountID: account, room.EnvRoomID: topic}}
	}
	doc := map[string]any{"mcpServers": map[string]mcpServer{
		"pullcept-room-ada-t1": entry("ada", "t1"),
		"pullcept-room-bea-t1": entry("bea", "t1"),
		"pullcept-room-ada-t2": entry("ada", "t2"),
		"other-server":         entry("ada", "t3"),
	}}
	path := filepath.Join(t.TempDir(), ".mcp.json")
	b, _ := json.Marshal(doc)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if key, e, err := roomServer(path, "bea", "t1"); err != nil || key != "pullcept-room-bea-t1" || e.Command != "pullcept" {
		t.Errorf("roomServer(bea, t1) = %q, %+v, %v", key, e, err)
	}
	for _, c := range [][2]string{{"ada", "t3"}, {"cid", "t1"}} {
		if key, _, err := roomServer(path, c[0], c[1]); err == nil {
			t.Errorf("roomServer(%s, %s) = %q, want no entry", c[0], c[1], key)
		}
	}
	if _, _, err := roomServer(filepath.Join(t.TempDir(), ".mcp.json"), "ada", "t1"); err == nil {
		t.Error("roomServer without a .mcp.json succeeded")
	}
}

// TestAccountSeatsTheFakeCLI: the account runs this test binary with Env
// set, which config accepts in an account's env.
func TestAccountSeatsTheFakeCLI(t *testing.T) {
	t.Parallel()
	a := Account(t, "echo", "Echo", t.TempDir(), "-join")
	if a.Kind != config.KindCLI || a.Command != Command(t) || a.LaunchOptions != "-join" {
		t.Errorf("Account = %+v", a)
	}
	if err := config.CheckEnvName(Env); err != nil {
		t.Errorf("an account may not carry %s: %v", Env, err)
	}
	if len(a.Env) != 1 || a.Env[0].Name != Env {
		t.Errorf("Account env = %+v, want %s", a.Env, Env)
	}
}

// TestEchoNeedsJoinAndReadsTags: -echo answers only a post's tag line (its
// message_id), never a body line or the human's typing, and it needs -join
// (it answers through the room's sidecar).
func TestEchoNeedsJoinAndReadsTags(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	for _, flag := range []string{"-echo", "-ops", "-hostile", "-load=5"} {
		out.Reset()
		if code := run(context.Background(), []string{flag}, strings.NewReader(""), &out); code != 2 || !strings.Contains(out.String(), "need -join") {
			t.Errorf("%s without -join: status %d, printed %q", flag, code, out.String())
		}
	}
	p := room.Post{MessageID: "m-7", Role: room.RoleAdmin, Speaker: "Alice", TS: "2026-10-01T16:14:05Z"}
	for _, tc := range []struct {
		line string
		id   string
	}{
		{room.Tag(p, time.UTC), "m-7"},
		{"hello", ""},
		{"> " + room.Tag(p, time.UTC), ""},
		{room.TagPrefix + "{not json", ""},
		{room.TagPrefix + `{"role":"admin"}`, ""},
	} {
		if id, ok := taggedID(tc.line); id != tc.id || ok != (tc.id != "") {
			t.Errorf("taggedID(%q) = %q, %v; want %q", tc.line, id, ok, tc.id)
		}
	}
}

// TestMineReadsTheTagsAddressee: -mine answers a tag line whose "to" names
// the seat's own "you", and nothing else.
func TestMineReadsTheTagsAddressee(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		mine bool
	}{
		{room.TagPrefix + `{"message_id":"m-1","to":["Ana"],"you":"Ana"}`, true},
		{room.TagPrefix + `{"message_id":"m-1","to":["Lin","Ana"],"you":"Ana"}`, true},
		{room.TagPrefix + `{"message_id":"m-1","to":["Lin"],"you":"Ana"}`, false},
		{room.TagPrefix + `{"message_id":"m-1","you":"Ana"}`, false},
		{room.TagPrefix + `{"message_id":"m-1","to":[""]}`, false},
		{`{"to":["Ana"],"you":"Ana"}`, false},
	} {
		if got := addressedToMe(tc.line); got != tc.mine {
			t.Errorf("addressedToMe(%q) = %v", tc.line, got)
		}
	}
}
