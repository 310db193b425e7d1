//go:build linux || darwin

package room

import (
	"bufio"
	"context"
	"fmt"
	"golang.org/x/sys/unix"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// seatDialEnv hands TestHelperSeatDial its socket, token and hook URL.
const seatDialEnv = "PULLCEPT_TEST_SEAT_DIAL"

// postHook posts a Stop hook for seat t/cc with token, over the room
// socket or (socket "") over TCP, and returns the status.
func postHook(t *testing.T, s *Server, socket, token string) int {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{DialContext: SeatDialer(socket), DisableKeepAlives: true}}
	req, _ := http.NewRequest(http.MethodPost, s.HooksURL()+"/hooks/activity/Stop/t/cc", strings.NewReader(`{"hook_event_name":"Stop"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// TestSeatTokenOutsideItsTreeIsRefused (issue 31): a process that holds
// seat cc's token — read, as any sibling seat can, from the seat's
// environment — but is not one of the seat's processes cannot say hello
// (and so cannot post, read history or run a session operation, which all
// ride that socket) or send a hook as cc, over the room socket or over
// TCP; each refusal is logged. The seat's own process and its descendants
// can. Before: the token alone was enough, from anywhere.
func TestSeatTokenOutsideItsTreeIsRefused(t *testing.T) {
	terms := newFakeTerms("t/cc")
	h := newTestHub(t, nil, terms, testAccounts)
	mustOpen(t, h, "t")
	logs := &testkit.Buffer{}
	s := newTestServer(t, h, ServerOptions{SocketDir: testkit.RoomSocketDir(t),
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	token, _, err := s.Grant("cc", "t", "")
	if err != nil {
		t.Fatal(err)
	}
	// The seat is another process: this test process is not in its tree.
	seatProc := exec.Command("sleep", "600")
	if err := seatProc.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = seatProc.Process.Kill(); _ = seatProc.Wait() })
	if err := s.BindProcess(token, seatProc.Process.Pid); err != nil {
		t.Fatal(err)
	}

	if _, code := dialPipe(t, s, token); code != http.StatusForbidden {
		t.Errorf("hello from outside the seat's tree over the socket: status %d, want 403", code)
	}
	if code := dialStatus(t, s.URL(), http.Header{"Authorization": {"Bearer " + token}}); code != http.StatusForbidden {
		t.Errorf("hello with a seat token over TCP: status %d, want 403", code)
	}
	if code := postHook(t, s, s.SocketPath(), token); code != http.StatusForbidden {
		t.Errorf("a Stop hook from outside the seat's tree: status %d, want 403", code)
	}
	if code := postHook(t, s, "", token); code != http.StatusForbidden {
		t.Errorf("a Stop hook with a seat token over TCP: status %d, want 403", code)
	}
	if _, ok := terms.lastReport("t", "cc", ReportActivity); ok {
		t.Error("a refused hook reached the seat")
	}
	if r, _ := h.Roster("t"); len(r) != 0 {
		t.Errorf("the roster after refused hellos: %+v", r)
	}
	if n := strings.Count(logs.String(), "a seat token refused"); n != 4 {
		t.Errorf("%d refusals logged, want 4:\n%s", n, logs.String())
	}

	// This process bound as the seat's: its hello, post, history and hook
	// are the seat's; over TCP the token still counts for nothing.
	if err := s.BindProcess(token, os.Getpid()); err != nil {
		t.Fatal(err)
	}
	own, code := dialPipe(t, s, token)
	if own == nil {
		t.Fatalf("the seat's own process refused: status %d", code)
	}
	own.hello("Lin", "t", "cc")
	if fr := own.post("m-1", "hello", ""); !fr.Delivered {
		t.Fatalf("the seat's post: %+v", fr)
	}
	if hr := own.history("h-1", "", 10); len(hr.Posts) != 1 {
		t.Fatalf("the seat's history: %+v", hr)
	}
	if code := postHook(t, s, s.SocketPath(), token); code != http.StatusOK {
		t.Errorf("the seat's own hook: status %d", code)
	}
	if code := postHook(t, s, "", token); code != http.StatusForbidden {
		t.Errorf("the seat's token over TCP: status %d, want 403", code)
	}

	// A descendant of a bound process is the seat too (a CLI's sidecar,
	// its hook commands).
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(self, "-test.run=^TestHelperSeatDial$", "-test.count=1")
	child.Env = append(os.Environ(), seatDialEnv+"="+s.SocketPath()+" "+token+" "+s.HooksURL())
	out, err := child.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "hook status 200") {
		t.Fatalf("a descendant's hook: %v\n%s", err, out)
	}
}

// TestHelperSeatDial posts a Stop hook over the room socket as a child
// process of the test (TestSeatTokenOutsideItsTreeIsRefused) and prints its
// status.
func TestHelperSeatDial(t *testing.T) {
	spec := os.Getenv(seatDialEnv)
	if spec == "" {
		t.Skip("a helper process of TestSeatTokenOutsideItsTreeIsRefused")
	}
	var socket, token, hooks string
	if _, err := fmt.Sscan(spec, &socket, &token, &hooks); err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", socket)
	}}}
	req, _ := http.NewRequest(http.MethodPost, hooks+"/hooks/activity/Stop/t/cc", strings.NewReader(`{"hook_event_name":"Stop"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	fmt.Printf("hook status %d\n", resp.StatusCode)
}

// passFDEnv makes TestHelperPassConn connect to the room socket it names
// and hand the connection to its parent over fd 3, then exit.
const passFDEnv = "PULLCEPT_TEST_PASS_CONN"

// TestHelperPassConn is the exited connector of
// TestSeatTokenFromAnEndedConnector.
func TestHelperPassConn(t *testing.T) {
	socket := os.Getenv(passFDEnv)
	if socket == "" {
		t.Skip("a helper process of TestSeatTokenFromAnEndedConnector")
	}
	c, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.(*net.UnixConn).File()
	if err != nil {
		t.Fatal(err)
	}
	parent := os.NewFile(3, "parent")
	if err := unix.Sendmsg(int(parent.Fd()), []byte{0}, unix.UnixRights(int(f.Fd())), nil, 0); err != nil {
		t.Fatal(err)
	}
}

// TestSeatTokenFromAnEndedConnector (issue 31 review): a connection whose
// connecting process has ended — a seat kept it, waiting for the pid to
// come back in another seat's tree — is refused, even by a test that would
// hold any pid: the pid is no longer the process that connected.
func TestSeatTokenFromAnEndedConnector(t *testing.T) {
	h := newTestHub(t, nil, newFakeTerms("t/cc"), testAccounts)
	mustOpen(t, h, "t")
	s := newTestServer(t, h, ServerOptions{SocketDir: testkit.RoomSocketDir(t)})
	token, _, err := s.Grant("cc", "t", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.BindTree(token, func(int) bool { return true }); err != nil {
		t.Fatal(err)
	}
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	ours, theirs := os.NewFile(uintptr(pair[0]), "ours"), os.NewFile(uintptr(pair[1]), "theirs")
	defer ours.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(self, "-test.run=^TestHelperPassConn$", "-test.count=1")
	child.Env = append(os.Environ(), passFDEnv+"="+s.SocketPath())
	child.ExtraFiles = []*os.File{theirs}
	if out, err := child.CombinedOutput(); err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	theirs.Close()
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := unix.Recvmsg(int(ours.Fd()), buf, oob, 0)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		t.Fatalf("control messages %v %v", msgs, err)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		t.Fatalf("rights %v %v", fds, err)
	}
	conn, err := net.FileConn(os.NewFile(uintptr(fds[0]), "passed"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The connector has exited (CombinedOutput waited for it).
	req := "POST /hooks/activity/Stop/t/cc HTTP/1.1\r\nHost: " + strings.TrimPrefix(s.HooksURL(), "http://") +
		"\r\nAuthorization: Bearer " + token + "\r\nContent-Length: 26\r\n\r\n{\"hook_event_name\":\"Stop\"}"
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a hook on the connection of an ended process: status %d, want 403", resp.StatusCode)
	}
}
