package seats_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// environToken reads the room token from pid's environment, as a sibling
// seat (the same user) can.
func environToken(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(room.EnvRoomToken+"=")); ok {
			return string(v)
		}
	}
	t.Fatalf("no %s in pid %d's environment", room.EnvRoomToken, pid)
	return ""
}

// forgeHook posts event's hook for seat (topic, account) with token, over
// the room socket or (socket "") over TCP; it returns the status.
func forgeHook(t *testing.T, hooks, socket, token, event, topic, account string) int {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{DialContext: room.SeatDialer(socket), DisableKeepAlives: true}}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, room.HookActivityURL(hooks, event, topic, account),
		strings.NewReader(`{"hook_event_name":"`+event+`","session_id":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// TestE2EClaudeForgedStopKeepsTheHold (issue 31): a real Claude Code seat
// stops on "Do you want to proceed?" and a room post waits behind the
// permission hold. A process outside the seat — as a sibling seat would —
// reads the seat's token from its environment and sends a forged Stop (and
// PostToolUse) for it, over the room socket and over TCP: each is refused,
// the hold stays, the post is not typed into the dialog and the command
// does not run. Before, the forged Stop lifted the hold and the post's
// Enter picked "1. Yes".
func TestE2EClaudeForgedStopKeepsTheHold(t *testing.T) {
	f := &permissionFake{hold: make(chan struct{})}
	r := newRig(t, f.respond)
	defer f.release.Do(func() { close(f.hold) })
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	f.marker = filepath.Join(r.root, "ran-the-command")
	ada := r.addAccount(config.Account{ID: "ada", Name: "Ada", Kind: config.KindClaudeCode,
		WorkDir: r.workDir("ada"), Command: fakeapi.CLIPath(t, fakeapi.CLIClaude),
		LaunchOptions: "--permission-mode default"})
	_, s := r.start(ada.ID)
	r.waitReady(ada.ID, s)
	if r.srv.SocketPath() == "" {
		t.Fatal("the rig's room has no socket")
	}
	r.post(permissionAsk + " @Ada")
	e2eUntil(t, "the permission dialog on Ada's screen", func() bool {
		return r.seatInfo(ada.ID).Activity.Kind == cli.ActivityPermission &&
			strings.Contains(s.Screen().Text(), "Do you want to proceed?")
	}, s.Done())
	r.post("a post that must not answer the dialog @Ada")
	e2eUntil(t, "the post held for the permission wait", func() bool {
		st := seats.TypingOf(s)
		return st.Queued == 1 && slices.Contains(st.Holds, "permission")
	}, s.Done())

	token := environToken(t, r.seatInfo(ada.ID).Pid)
	for _, ev := range []string{"PostToolUse", "Stop"} {
		for _, socket := range []string{r.srv.SocketPath(), ""} {
			if code := forgeHook(t, r.srv.HooksURL(), socket, token, ev, e2eTopic, ada.ID); code != http.StatusForbidden {
				t.Errorf("a forged %s (socket %q): status %d, want 403", ev, socket, code)
			}
		}
	}
	// A refusal is answered before the hook reaches the seat: nothing of
	// the forgeries (their session id "x") was reported.
	for _, ev := range []string{"PostToolUse", "Stop"} {
		if r.reports.has(ev, `"session_id":"x"`) {
			t.Errorf("a forged %s reached the seat", ev)
		}
	}
	st := seats.TypingOf(s)
	if st.Queued != 1 || !slices.Contains(st.Holds, "permission") {
		t.Fatalf("after the forged hooks the queue = %+v, want the post held for the permission wait", st)
	}
	if k := r.seatInfo(ada.ID).Activity.Kind; k != cli.ActivityPermission {
		t.Fatalf("after the forged hooks Ada's activity = %v, want permission", k)
	}
	if _, err := os.Stat(f.marker); !os.IsNotExist(err) {
		t.Fatalf("the command ran with nobody having answered (stat: %v)", err)
	}
	if !strings.Contains(s.Screen().Text(), "Do you want to proceed?") {
		t.Fatalf("the dialog closed without an answer:\n%s", s.Screen().Text())
	}
}
