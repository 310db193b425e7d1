//go:build unix

package room

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// halfOpenConns is how many connections the half-open attack holds open at
// once (docs/design.md §13: 10,000, bounded). They come from a helper process, as an
// attacker would: the server's 10,000 ends stay in this process, under its
// descriptor limit (RLIMIT_NOFILE is 20,000 on CI and root there lacks
// CAP_SYS_RESOURCE to raise it).
const halfOpenConns = 10_000

// halfOpenEnv carries the attack to the helper process: address, count,
// how long to wait for the server to close every connection (a Go
// duration), and the token for the requests that stop before their blank
// line ("addr count wait token").
const halfOpenEnv = "PULLCEPT_TEST_HALF_OPEN"

// halfOpenPartial is what each connection sends (round robin) before
// falling silent: nothing, half a request line, or a whole authorised
// request but for the blank line that ends its headers.
func halfOpenPartial(port, token string) []string {
	return []string{
		"",
		"GET /room HT",
		"GET /room HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + token + "\r\n",
	}
}

// TestHelperHalfOpenAttacker is not a test: it is the attacker process
// TestHostileHalfOpen starts (re-executing this binary, docs/design.md §14 "helper
// process"). Without halfOpenEnv it returns at once. It opens the
// connections, prints "opened", then reads every one until the server
// closes it and prints "closed <n> stuck <n> last <duration> first-stuck <text>".
func TestHelperHalfOpenAttacker(t *testing.T) {
	spec := os.Getenv(halfOpenEnv)
	if spec == "" {
		return
	}
	f := strings.Fields(spec)
	if len(f) != 4 {
		fmt.Printf("error bad spec %q\n", spec)
		os.Exit(2)
	}
	addr, token := f[0], f[3]
	count, err1 := strconv.Atoi(f[1])
	wait, err2 := time.ParseDuration(f[2])
	if err := errors.Join(err1, err2); err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(2)
	}
	_, port, _ := net.SplitHostPort(addr)
	partial := halfOpenPartial(port, token)
	conns := make([]net.Conn, count)
	// A few dialers at once: the listener's backlog (somaxconn) is far
	// smaller than 10,000, so the server's accept loop has to keep up.
	const workers = 32
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Pointer[error]
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := net.Dialer{Timeout: waitFor}
			for {
				i := int(next.Add(1)) - 1
				if i >= count || failed.Load() != nil {
					return
				}
				c, err := d.Dial("tcp", addr)
				if err == nil && partial[i%len(partial)] != "" {
					_, err = io.WriteString(c, partial[i%len(partial)])
				}
				if err != nil {
					err = fmt.Errorf("connection %d: %w", i, err)
					failed.Store(&err)
					return
				}
				conns[i] = c
			}
		}()
	}
	wg.Wait()
	if perr := failed.Load(); perr != nil {
		fmt.Printf("error %v\n", *perr)
		os.Exit(1)
	}
	opened := time.Now()
	fmt.Println("opened")

	deadline := opened.Add(wait)
	var closed, stuck atomic.Int64
	var last atomic.Int64
	var firstStuck atomic.Pointer[string]
	next.Store(0)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= count {
					return
				}
				c := conns[i]
				_ = c.SetReadDeadline(deadline)
				// The server closes (EOF or reset), possibly after a 4xx
				// answer to a half request; our own deadline means it did not.
				_, err := io.Copy(io.Discard, c)
				c.Close()
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					if stuck.Add(1) == 1 {
						msg := fmt.Sprintf("connection %d (sent %q)", i, partial[i%len(partial)])
						firstStuck.Store(&msg)
					}
					continue
				}
				closed.Add(1)
				took := int64(time.Since(opened))
				for {
					old := last.Load()
					if took <= old || last.CompareAndSwap(old, took) {
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	first := "-"
	if p := firstStuck.Load(); p != nil {
		first = *p
	}
	fmt.Printf("closed %d stuck %d last %s first-stuck %s\n", closed.Load(), stuck.Load(), time.Duration(last.Load()), first)
	os.Exit(0)
}

// TestHostileHalfOpen: 10,000 TCP connections that never finish their
// request — a third send nothing, a third half a request line, a third
// every header but the blank line — held open at once by another process,
// are all closed by the server within its header timeout, while the
// participant keeps posting and a new participant connects and posts in the
// middle of the attack.
func TestHostileHalfOpen(t *testing.T) {
	r := newHostileRig(t)
	timeout := r.s.opts.ReadHeaderTimeout
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The helper waits for the closes up to the timeout plus a margin for a
	// loaded box; it has to open all connections first.
	spec := fmt.Sprintf("127.0.0.1:%s %d %s %s", r.port, halfOpenConns, timeout+waitFor, r.s.Token())
	cmd := exec.Command(self, "-test.run=^TestHelperHalfOpenAttacker$", "-test.count=1")
	cmd.Env = append(os.Environ(), halfOpenEnv+"="+spec)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := make(chan string, 4)
	go func() {
		defer close(lines)
		defer func() { _ = recover() }() // a send after the test ended; nothing to report
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	next := func(what string) string {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the attacker process ended before %s", what)
			}
			if strings.HasPrefix(l, "error ") {
				t.Fatalf("the attacker process: %s", l)
			}
			return l
		case <-time.After(2*timeout + 4*waitFor):
			t.Fatalf("no %s from the attacker process", what)
		}
		return ""
	}
	var result string
	r.poster.during(t, fmt.Sprintf("%d half-open connections", halfOpenConns), func() {
		if l := next(`"opened"`); l != "opened" {
			t.Fatalf("attacker: %q", l)
		}
		// In the middle of the attack a new participant connects and posts.
		kai := dialRoom(t, r.s, bearer(r.s))
		kai.hello("Kai", "t", "cx")
		fr, err := kai.tryPost("kai-1", "joined during the flood", "")
		if err != nil || fr.Error != "" || !fr.Delivered && len(fr.Missed) == 0 {
			t.Fatalf("a new participant during the flood: %+v %v", fr, err)
		}
		result = next("result")
	})
	var closed, stuck int
	var last time.Duration
	var lastText, first string
	if _, err := fmt.Sscanf(result, "closed %d stuck %d last %s first-stuck", &closed, &stuck, &lastText); err != nil {
		t.Fatalf("attacker result %q: %v", result, err)
	}
	first = strings.TrimSpace(result[strings.Index(result, "first-stuck")+len("first-stuck"):])
	if last, err = time.ParseDuration(lastText); err != nil {
		t.Fatalf("attacker result %q: %v", result, err)
	}
	if stuck > 0 || closed != halfOpenConns {
		t.Fatalf("%d of %d half-open connections were still open %v after the attack began (header timeout %v); first: %s",
			stuck, halfOpenConns, timeout+waitFor, timeout, first)
	}
	t.Logf("all %d half-open connections were closed by the server, the last %v after all were open (header timeout %v)",
		closed, last.Round(time.Millisecond), timeout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("attacker process: %v", err)
	}
}
