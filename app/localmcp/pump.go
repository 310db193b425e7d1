package localmcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pullcept/pullcept/room/textcut"
)

// ChannelMethod is the notification a channel server pushes:
// params {content, meta: {message_id, ...}} (github-webhook-mcp 0.11.2
// sends meta {chat_id: "github", message_id: <event id>, user: <sender>,
// ts: <received_at>}).
const ChannelMethod = "notifications/claude/channel"

// maxMessageBytes caps one JSON-RPC message from a server. get_event
// answers carry a whole webhook payload (GitHub sends up to 25 MB,
// re-encoded as a JSON string inside the answer); a longer line is dropped
// and logged, and memory stays bounded by one line.
const maxMessageBytes = 64 << 20

// maxPushContent caps a push's content (a bridge summary is a few lines);
// longer content is cut on a rune boundary, so the queue holds at most
// QueueLen × 16 KiB.
const maxPushContent = 16 << 10

// maxEventID caps an event id: it goes on one line of the notice.
const maxEventID = 256

// lifecycle ends the run: on a stop, the process's exit or stdout's end
// it closes stdin, kills the process tree after the grace, drains the
// readers, waits for the other goroutines, reports and closes done.
func (r *run) lifecycle() {
	defer close(r.done)
	defer r.workers.Wait()
	defer func() {
		if v := recover(); v != nil { // end what the run holds, so the wait above ends
			r.note(fmt.Sprintf("internal error in the lifecycle: %v", v))
			r.cancel()
			killTree(r.cmd.Process)
			_ = r.toClient.Close()
			_ = r.stdout.Close()
			_ = r.stderr.Close()
		}
	}()
	select {
	case <-r.stopReq:
	case <-r.exited:
	case <-r.stdoutDone:
		if !r.awaitExit(r.stopReq) && !r.userStop.Load() {
			r.note("it closed its stdout and kept running: ending it")
		}
	}
	r.cancel()
	_ = r.mcp.Close()      // closes stdin: a well-behaved server ends now
	_ = r.toClient.Close() // mcp-go's reader stopped: unblock the pump's forwarding
	if !r.awaitExit(nil) {
		killTree(r.cmd.Process)
		r.note(fmt.Sprintf("killed its process tree: still running %v after its stdin closed", r.sup.opts.Grace))
		<-r.exited
	}
	r.drainReaders()
	r.report()
}

// awaitExit waits up to the grace for the process to end (or for also,
// when not nil) and reports whether it ended.
func (r *run) awaitExit(also <-chan struct{}) bool {
	t := time.NewTimer(r.sup.opts.Grace)
	defer t.Stop()
	select {
	case <-r.exited:
		return true
	case <-also:
	case <-t.C:
	}
	select {
	case <-r.exited:
		return true
	default:
		return false
	}
}

// drainReaders gives stdout and stderr readerDrain to reach end of file,
// then closes them (a process that escaped the tree may hold them open).
func (r *run) drainReaders() {
	ctx, cancel := context.WithTimeout(context.Background(), readerDrain)
	defer cancel()
	for _, ch := range []chan struct{}{r.stdoutDone, r.stderrDone} {
		select {
		case <-ch:
		case <-ctx.Done():
		}
	}
	_ = r.stdout.Close()
	_ = r.stderr.Close()
}

// report records how the run ended.
func (r *run) report() {
	code := r.code
	phase, current := r.sup.phase(r)
	switch {
	case !current:
		r.note(fmt.Sprintf("exited with code %d", code))
	case r.userStop.Load() && (phase == Starting || phase == Running):
		r.sup.setState(r, func(st *State) { st.Phase, st.Code, st.Since = Stopped, code, time.Now() })
		r.note(fmt.Sprintf("stopped (exit code %d)", code))
	case phase == Running:
		r.sup.setState(r, func(st *State) { st.Phase, st.Code, st.Since = Exited, code, time.Now() })
		r.note(fmt.Sprintf("exited with code %d", code))
	case phase == Starting:
		reason := fmt.Sprintf("exited with code %d before answering initialize", code)
		r.sup.setState(r, func(st *State) { st.Phase, st.Code, st.Reason, st.Since = Failed, code, reason, time.Now() })
		r.note("failed: " + reason)
	default:
		r.sup.setState(r, func(st *State) { st.Code = code })
		r.note(fmt.Sprintf("exited with code %d", code))
	}
}

// pump reads the server's stdout: channel pushes go to the notice queue,
// every other message to mcp-go's transport, a malformed one to the log.
func (r *run) pump() {
	defer r.workers.Done()
	defer close(r.stdoutDone)
	defer close(r.pushes)
	defer func() { _ = r.toClient.Close() }() // mcp-go's reader sees EOF
	defer r.recovered("the stdout reader")
	br := bufio.NewReaderSize(r.stdout, 64<<10)
	forward := true
	var buf []byte
	for {
		line, overlong, err := readLine(br, maxMessageBytes, buf)
		switch {
		case overlong:
			r.note(fmt.Sprintf("dropped a message over %d MiB from the server", maxMessageBytes>>20))
		case len(bytes.TrimSpace(line)) > 0:
			forward = r.message(line, forward)
		}
		if cap(line) <= 1<<20 {
			buf = line[:0]
		} else {
			buf = nil // keep no large buffer between big answers
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				r.note("reading the server's stdout: " + err.Error())
			}
			return
		}
	}
}

// message handles one line of stdout and reports whether forwarding to
// the transport still works.
func (r *run) message(line []byte, forward bool) bool {
	var env struct { // params not yet: a push over the brake's rate costs no copy of it
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal(line, &env); err != nil {
		r.note(fmt.Sprintf("malformed JSON-RPC from the server (%v): %s", err, preview(line)))
		return forward
	}
	if env.Method == ChannelMethod && (len(env.ID) == 0 || string(env.ID) == "null") {
		if !r.brake.admit() {
			r.folded.Add(1)
			r.brake.fold(time.Now())
			return forward
		}
		var msg struct {
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal(line, &msg) // it parsed above
		r.channelPush(msg.Params)
		return forward
	}
	if !forward {
		return false
	}
	if _, err := r.toClient.Write(append(line, '\n')); err != nil {
		return false
	}
	return true
}

// channelPush queues one channel notification the brake let through
// (message; brake.go) for its notice, or drops it: without an event id
// (logged), or when the queue is full (counted, and folded).
func (r *run) channelPush(params json.RawMessage) {
	var p struct {
		Content *string `json:"content"`
		Meta    *struct {
			MessageID json.RawMessage `json:"message_id"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.Content == nil {
		r.note(fmt.Sprintf("malformed channel push (no content string): %s", preview(params)))
		return
	}
	var id string
	if p.Meta != nil {
		id = eventID(p.Meta.MessageID)
	}
	if id == "" {
		first, _, _ := strings.Cut(*p.Content, "\n")
		r.note("dropped a channel push without an event id: " + first)
		return
	}
	content := *p.Content
	if len(content) > maxPushContent {
		content = textcut.Bytes(content, maxPushContent)
		r.note(fmt.Sprintf("event %s: content cut to %d KiB", id, maxPushContent>>10))
	}
	if r.queuedBytes.Add(int64(len(content))) > maxQueuedBytes {
		r.queuedBytes.Add(-int64(len(content)))
		r.dropPush()
		return
	}
	select {
	case r.pushes <- push{id: id, content: content}:
		r.received.Add(1)
	default:
		r.queuedBytes.Add(-int64(len(content)))
		r.dropPush()
	}
}

// dropPush counts a push dropped because the queue is full (by count or
// bytes); it is folded too, so the room learns of it.
func (r *run) dropPush() {
	r.brake.fold(time.Now())
	r.dropped.Add(1)
	r.droppedUnnoted.Add(1)
	if !r.dropping.Swap(true) {
		r.note(fmt.Sprintf("the notice queue (%d) is full: dropping channel pushes until it drains", cap(r.pushes)))
	}
}

// eventID reads meta.message_id: a string or a number, one line of
// printable characters without spaces, at most maxEventID bytes; else "".
func eventID(raw json.RawMessage) string {
	var id string
	if err := json.Unmarshal(raw, &id); err != nil {
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return ""
		}
		id = n.String()
	}
	if len(id) > maxEventID || !utf8.ValidString(id) {
		return ""
	}
	if strings.ContainsFunc(id, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) {
		return ""
	}
	return id
}

// readStderr puts each line of the server's stderr in its log. It never
// stops reading before end of file, so a server flooding stderr never
// blocks; each line keeps at most MaxLineBytes.
func (r *run) readStderr() {
	defer r.workers.Done()
	defer close(r.stderrDone)
	defer r.recovered("the stderr reader")
	br := bufio.NewReaderSize(r.stderr, 16<<10)
	buf := make([]byte, 0, MaxLineBytes+8)
	for {
		line, overlong, err := readLine(br, MaxLineBytes, buf)
		if err == nil || len(line) > 0 || overlong {
			r.sup.stderrLine(r.srv, cleanLine(line, overlong))
		}
		if err != nil {
			return
		}
		buf = line[:0]
	}
}

// readLine reads one line (its "\n" and a "\r" before it removed). A line
// longer than limit keeps its first limit bytes and reports overlong; the
// rest of it is read and thrown away. buf is reused when large enough.
func readLine(br *bufio.Reader, limit int, buf []byte) (line []byte, overlong bool, err error) {
	line = buf[:0]
	for {
		chunk, err := br.ReadSlice('\n')
		if !overlong {
			body := chunk
			if err == nil {
				body = chunk[:len(chunk)-1]
			}
			if len(line)+len(body) > limit {
				line = append(line, body[:limit-len(line)]...)
				overlong = true
			} else {
				line = append(line, body...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == nil && !overlong {
			line = bytes.TrimSuffix(line, []byte("\r"))
		}
		return line, overlong, err
	}
}

// preview is a short, printable head of a malformed message for the log.
func preview(b []byte) string {
	const n = 200
	if len(b) <= n {
		return string(b)
	}
	return textcut.Bytes(string(b[:n+1]), n) + "…" // byte n says whether n splits a character
}
