//go:build linux || darwin

package room

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// The cost of knowing a seat by its process (issue 31), before/after:
//
//	go test -run '^$' -bench 'SeatHello|SeatHook' -benchtime 300x ./room
//
// Each reports p50 and p95 of one whole round trip.

// reportPercentiles adds p50 and p95 of lat to b's metrics.
func reportPercentiles(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds()), "p95-µs")
}

// benchServer is a room with seat cc in topic t; with socket, it has the
// room socket and seat tokens count only from this process (bound).
func benchServer(b *testing.B, socket bool) *Server {
	h := newTestHub(b, nil, newFakeTerms("t/cc"), testAccounts)
	mustOpen(b, h, "t")
	opts := ServerOptions{}
	if socket {
		opts.SocketDir = testkit.RoomSocketDir(b)
	}
	return newTestServer(b, h, opts)
}

// benchToken grants a seat token for cc in t, bound to this process when
// the server has a socket.
func benchToken(b *testing.B, s *Server) string {
	token, _, err := s.Grant("cc", "t", "")
	if err != nil {
		b.Fatal(err)
	}
	if s.SocketPath() != "" {
		if err := s.BindProcess(token, os.Getpid()); err != nil {
			b.Fatal(err)
		}
	}
	return token
}

// BenchmarkSeatHello: a sidecar's connect — dial, upgrade, hello and the
// first answer (a history page) — with a seat token over TCP (before) and
// over the room socket with the kernel's check of the process tree
// (after). A fresh token per connect: a token's hellos are rate-limited.
func BenchmarkSeatHello(b *testing.B) {
	for _, mode := range []string{"tcp-token", "socket-tree"} {
		b.Run(mode, func(b *testing.B) {
			s := benchServer(b, mode == "socket-tree")
			d := websocket.Dialer{NetDialContext: SeatDialer(s.SocketPath())}
			var lat []time.Duration
			for b.Loop() {
				token := benchToken(b, s)
				start := time.Now()
				ws, _, err := d.Dial(s.URL(), http.Header{"Authorization": {"Bearer " + token}})
				if err != nil {
					b.Fatal(err)
				}
				c := &client{t: b, ws: ws}
				c.hello("Lin", "t", "cc")
				c.history("h", "", 1)
				lat = append(lat, time.Since(start))
				ws.Close()
			}
			reportPercentiles(b, lat)
		})
	}
}

// BenchmarkSeatHook: one Claude Code hook's round trip — an http hook (a
// loopback POST, before), the same POST over the room socket with the
// tree check, and what Claude runs now: the command hook, `pullcept hook`
// started as a child process that posts over the socket (after).
func BenchmarkSeatHook(b *testing.B) {
	for _, mode := range []string{"http-tcp", "socket-inprocess", "command"} {
		b.Run(mode, func(b *testing.B) {
			s := benchServer(b, mode != "http-tcp")
			token := benchToken(b, s)
			target := HookActivityURL(s.HooksURL(), "PreToolUse", "t", "cc")
			body := `{"hook_event_name":"PreToolUse","tool_name":"Bash"}`
			var run func()
			if mode == "command" {
				bin := buildPullcept(b)
				run = func() {
					cmd := exec.Command(bin, HookCommand, target)
					cmd.Env = append(os.Environ(), EnvRoomToken+"="+token, EnvRoomSocket+"="+s.SocketPath())
					cmd.Stdin = strings.NewReader(body)
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("pullcept hook: %v: %s", err, out)
					}
				}
			} else {
				client := &http.Client{Transport: &http.Transport{DialContext: SeatDialer(s.SocketPath()), DisableKeepAlives: true}}
				run = func() {
					req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader(body))
					req.Header.Set("Authorization", "Bearer "+token)
					resp, err := client.Do(req)
					if err != nil || resp.StatusCode != http.StatusOK {
						b.Fatalf("hook: %v %v", resp, err)
					}
					resp.Body.Close()
				}
			}
			var lat []time.Duration
			for b.Loop() {
				start := time.Now()
				run()
				lat = append(lat, time.Since(start))
			}
			reportPercentiles(b, lat)
		})
	}
}

// buildPullcept builds the pullcept binary (not -race) for the command
// hook's benchmark.
func buildPullcept(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "pullcept")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/pullcept/pullcept").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
