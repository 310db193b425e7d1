package fakemcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// The control protocol, one line each way per step, over one loopback TCP
// connection per server run (the server dials Config.Control once
// initialized):
//
//	server → test  "hello <pid>"        once, on connecting
//	test → server  "push <Push JSON>"   store Push.Event for get_event, write the channel push
//	test → server  "line <raw>"         write raw as one stdout line
//	server → test  "ok" | "error <why>" once the command's output is flushed

// Push is one channel push a test makes the server write.
type Push struct {
	ID      string `json:"id"`              // meta.message_id ("" leaves it out)
	Content string `json:"content"`         // params.content
	Event   *Event `json:"event,omitempty"` // get_event's answer for ID from now on (nil: the config's)
}

// Control drives running servers from the test: NewControl listens on
// loopback, Addr goes into Config.Control, and Push and Line go to the
// newest server that connected. Methods fail the test given to NewControl
// on a timeout or a refused command, so call them from its goroutine.
type Control struct {
	t     testing.TB
	ln    net.Listener
	conns chan *ctlConn
	done  chan struct{}

	mu  sync.Mutex
	cur *ctlConn // the newest server, once one connected
	all []net.Conn
}

// ctlConn is one server run's connection.
type ctlConn struct {
	c   net.Conn
	r   *bufio.Reader
	pid int
}

// NewControl listens on 127.0.0.1 for servers until the test ends.
func NewControl(t testing.TB) *Control {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &Control{t: t, ln: ln, conns: make(chan *ctlConn, 16), done: make(chan struct{})}
	go c.accept()
	t.Cleanup(c.close)
	return c
}

// Addr is the address for Config.Control.
func (c *Control) Addr() string { return c.ln.Addr().String() }

func (c *Control) close() {
	_ = c.ln.Close()
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conn := range c.all {
		_ = conn.Close()
	}
}

// accept takes each server's connection and its hello. Owner: the
// Control; ends when close closes the listener.
func (c *Control) accept() {
	defer close(c.done)
	for {
		conn, err := c.ln.Accept()
		if err != nil {
			return
		}
		c.mu.Lock()
		c.all = append(c.all, conn)
		c.mu.Unlock()
		_ = conn.SetReadDeadline(time.Now().Add(testkit.Wait))
		r := bufio.NewReader(conn)
		line, err := r.ReadString('\n')
		pid, perr := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(line), "hello "))
		if err != nil || perr != nil {
			_ = conn.Close()
			continue
		}
		select {
		case c.conns <- &ctlConn{c: conn, r: r, pid: pid}:
		default: // nobody drives this many servers; the newest are kept
			_ = conn.Close()
		}
	}
}

// newest waits for a server (up to testkit.Wait) and returns the newest
// one connected.
func (c *Control) newest() *ctlConn {
	c.t.Helper()
	c.mu.Lock()
	cur := c.cur
	c.mu.Unlock()
	if cur == nil {
		select {
		case cur = <-c.conns:
		case <-time.After(testkit.Wait):
			c.t.Fatalf("fakemcp: no server connected to the control in %v", testkit.Wait)
		}
	}
	for more := true; more; {
		select {
		case next := <-c.conns:
			cur = next
		default:
			more = false
		}
	}
	c.mu.Lock()
	c.cur = cur
	c.mu.Unlock()
	return cur
}

// Server waits for a server to connect and returns the newest one's pid.
func (c *Control) Server() int {
	c.t.Helper()
	return c.newest().pid
}

// Push makes the newest server write p as a channel push and returns once
// the push is on its stdout.
func (c *Control) Push(p Push) {
	c.t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		c.t.Fatal(err)
	}
	c.command("push " + string(b))
}

// Line makes the newest server write raw (one line) on its stdout.
func (c *Control) Line(raw string) {
	c.t.Helper()
	if strings.ContainsAny(raw, "\r\n") {
		c.t.Fatalf("fakemcp: Line %q has a line break", raw)
	}
	c.command("line " + raw)
}

// command sends one command and waits for its answer.
func (c *Control) command(cmd string) {
	c.t.Helper()
	cur := c.newest()
	_ = cur.c.SetDeadline(time.Now().Add(testkit.Wait))
	if _, err := cur.c.Write([]byte(cmd + "\n")); err != nil {
		c.t.Fatalf("fakemcp: control of server %d: %v", cur.pid, err)
	}
	answer, err := cur.r.ReadString('\n')
	if err != nil {
		c.t.Fatalf("fakemcp: control of server %d: %v", cur.pid, err)
	}
	if answer = strings.TrimSpace(answer); answer != "ok" {
		c.t.Fatalf("fakemcp: server %d: %s", cur.pid, answer)
	}
}

// control runs the Control's commands in the server until the
// connection closes.
func (s *server) control(addr string) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "control:", err)
		return
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "hello %d\n", os.Getpid()); err != nil {
		return
	}
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	for sc.Scan() {
		if _, err := fmt.Fprintln(conn, s.command(sc.Text())); err != nil {
			return
		}
	}
}

// command runs one control command and returns its answer.
func (s *server) command(line string) string {
	verb, arg, _ := strings.Cut(line, " ")
	switch verb {
	case "push":
		var p Push
		if err := json.Unmarshal([]byte(arg), &p); err != nil {
			return "error bad push: " + err.Error()
		}
		if p.Event != nil {
			s.mu.Lock()
			s.pushed[p.ID] = *p.Event
			s.mu.Unlock()
		}
		fmt.Fprintf(os.Stderr, "control: push %s\n", p.ID)
		arg = PushLine(p.ID, p.Content)
	case "line":
	default:
		return "error unknown command " + strconv.Quote(verb)
	}
	if err := s.writeLines(arg); err != nil {
		return "error stdout: " + err.Error()
	}
	return "ok"
}
