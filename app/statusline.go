package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/textcut"
	"github.com/pullcept/pullcept/seats/cli/claude"
)

// statusLineMax bounds the status JSON read from Claude Code's stdin; the
// real payload is a few KiB (docs/clis.md §2.9).
const statusLineMax = 1 << 20

// statusLinePostTimeout bounds the POST to the room: Claude Code runs the
// status line command often and waits for it, and the room is on loopback.
const statusLinePostTimeout = 2 * time.Second

// RunStatusLine is `pullcept status-line <url>` (docs/design.md §11): Claude Code's
// statusLine command. It forwards the JSON on stdin to the room's
// /hooks/status/… URL with the bearer token from PULLCEPT_ROOM_TOKEN (process
// environment, never argv) and prints one short line for Claude's footer.
// A room that cannot be reached is not an error for Claude: the line says so
// and the exit code stays 0.
func RunStatusLine(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: pullcept status-line <room status url>")
		return 2
	}
	target, err := url.Parse(args[0])
	if err != nil || target.Scheme != "http" || !room.IsLoopbackHost(target.Hostname()) {
		fmt.Fprintf(stderr, "pullcept status-line: %q is not a loopback http URL\n", args[0])
		return 2
	}
	body, err := io.ReadAll(io.LimitReader(stdin, statusLineMax))
	if err != nil {
		fmt.Fprintf(stderr, "pullcept status-line: read stdin: %v\n", err)
		return 1
	}
	// The line is best effort; the room gets the raw JSON.
	status, _ := claude.ParseStatus(body)

	note := ""
	if err := postStatus(target.String(), getenv(room.EnvRoomToken), getenv(room.EnvRoomSocket), body); err != nil {
		note = " · room unreachable"
	}
	parts := []string{"pullcept"}
	if m := footerText(status.Model()); m != "" {
		parts = append(parts, m)
	}
	if p := status.Context; p != nil {
		parts = append(parts, fmt.Sprintf("ctx %.0f%%", *p))
	}
	fmt.Fprintln(stdout, strings.Join(parts, " · ")+note)
	return 0
}

func postStatus(target, token, socket string, body []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), statusLinePostTimeout)
	defer cancel()
	_, err := postToRoom(ctx, target, token, socket, body, 4096)
	if err != nil {
		return fmt.Errorf("post status: %w", err)
	}
	return nil
}

// postToRoom posts body to target with the seat's token — over the room
// socket when there is one (room.SeatDialer), so the room knows the
// sender's process — and returns at most limit bytes of a 200's answer.
// Proxies are never used: the room is on this machine.
func postToRoom(ctx context.Context, target, token, socket string, body []byte, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := roomClient(socket).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(answer)))
	}
	return answer, nil
}

// roomClient is the HTTP client of postToRoom: over the room socket, one
// request a connection, no proxy, and no time limit of its own — the
// caller's context is the only one: `pullcept hook` holds a
// PermissionRequest as long as the room keeps its card (room.Hub's wait,
// up to room.MaxPermissionWait), which Claude Code's hook timeout outlasts
// (seats/cli/claude/line.go); a limit here would cut a longer wait.
func roomClient(socket string) *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: room.SeatDialer(socket), DisableKeepAlives: true}}
}

// footerText is a name from the status JSON as Claude's footer may show it:
// one line of printable characters, at most 48 runes. The JSON comes from
// the CLI, and the footer is drawn in the seat's pane.
func footerText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > 48 {
		s = textcut.Runes(s, 48) + "…"
	}
	return s
}
