package app

import (
	"context"
	"fmt"
	"io"
	"net/url"

	"github.com/pullcept/pullcept/room"
)

// hookMax bounds the hook JSON read from Claude Code's stdin, as the room
// bounds a hook body (room.ServerOptions.MaxHookBytes).
const hookMax = 1 << 20

// hookAnswerMax bounds the room's answer printed back (a permission
// decision is a few hundred bytes).
const hookAnswerMax = 64 << 10

// RunHook is `pullcept hook <url>`: a Claude Code command hook
// (docs/design.md §6 "Seat identity", §11). It posts the hook JSON on stdin
// to the room's hook URL over the room socket (room.EnvRoomSocket) with the
// token from room.EnvRoomToken — both from the process environment — and
// prints the room's answer, which Claude reads as the hook's output (a
// PermissionRequest's decision). Run by Claude Code, it is in the seat's
// process tree: the room takes a hook only from there, which an http hook
// (a loopback request any process can make) could not show. It has no
// time limit of its own (roomClient): the room holds a PermissionRequest
// for the human's answer as long as "permission_wait" says, and Claude's
// own hook timeout, set past the longest wait, is the backstop. A room
// that cannot be reached or refuses is exit 1 with the reason on stderr: a
// non-blocking hook error for Claude.
func RunHook(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: pullcept "+room.HookCommand+" <room hook url>")
		return 2
	}
	target, err := url.Parse(args[0])
	if err != nil || target.Scheme != "http" || !room.IsLoopbackHost(target.Hostname()) {
		fmt.Fprintf(stderr, "pullcept %s: %q is not a loopback http URL\n", room.HookCommand, args[0])
		return 2
	}
	body, err := io.ReadAll(io.LimitReader(stdin, hookMax+1))
	if err != nil {
		fmt.Fprintf(stderr, "pullcept %s: read stdin: %v\n", room.HookCommand, err)
		return 1
	}
	if len(body) > hookMax {
		fmt.Fprintf(stderr, "pullcept %s: the hook JSON is over %d bytes; not sent\n", room.HookCommand, hookMax)
		return 1
	}
	answer, err := postToRoom(context.Background(), target.String(), getenv(room.EnvRoomToken), getenv(room.EnvRoomSocket), body, hookAnswerMax)
	if err != nil {
		fmt.Fprintf(stderr, "pullcept %s: %v\n", room.HookCommand, err)
		return 1
	}
	if _, err := stdout.Write(answer); err != nil {
		return 1
	}
	return 0
}
