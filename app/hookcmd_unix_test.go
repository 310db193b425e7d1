//go:build !windows

package app

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestHookPostsOverTheRoomSocket: `pullcept hook` posts the hook JSON on
// stdin over the room socket with the token from the environment and
// prints the room's answer (Claude reads it as the hook's output); a
// refusal is exit 1 with the reason, a URL off this machine exit 2.
func TestHookPostsOverTheRoomSocket(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(testkit.RoomSocketDir(t), room.SocketName)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 2)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-1" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		got <- r.URL.Path + " " + string(b)
		_, _ = w.Write([]byte(`{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}`))
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	env := map[string]string{room.EnvRoomToken: "tok-1", room.EnvRoomSocket: sock}
	getenv := func(k string) string { return env[k] }
	// The URL's port is nobody's: the request goes over the socket.
	target := "http://127.0.0.1:9/hooks/activity/PermissionRequest/t/cc"
	var out, errb bytes.Buffer
	if code := RunHook([]string{target}, getenv, strings.NewReader(`{"hook_event_name":"PermissionRequest"}`), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if g := <-got; g != `/hooks/activity/PermissionRequest/t/cc {"hook_event_name":"PermissionRequest"}` {
		t.Fatalf("the room got %q", g)
	}
	if out.String() != `{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}` {
		t.Fatalf("printed %q", out.String())
	}
	env[room.EnvRoomToken] = "stolen"
	out.Reset()
	errb.Reset()
	if code := RunHook([]string{target}, getenv, strings.NewReader(`{}`), &out, &errb); code != 1 || out.Len() != 0 || !strings.Contains(errb.String(), "401") {
		t.Fatalf("refused: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	if code := RunHook([]string{"http://example.com/hooks/x"}, getenv, strings.NewReader(`{}`), &out, &errb); code != 2 {
		t.Fatalf("non-loopback URL: exit %d", code)
	}
	big := strings.NewReader(strings.Repeat("x", hookMax+1))
	if code := RunHook([]string{target}, getenv, big, &out, &errb); code != 1 || !strings.Contains(errb.String(), "over") {
		t.Fatalf("oversized hook: exit %d, %q", code, errb.String())
	}
	_ = os.Remove(sock)
}
