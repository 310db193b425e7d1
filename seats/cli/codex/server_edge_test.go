package codex

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"github.com/pullcept/pullcept/seats/launch"
)

// --no-alt-screen takes no value (codex 0.169.0: "unexpected value '1' for
// '--no-alt-screen' found") and may appear once ("cannot be used multiple
// times"): a value is refused, a repeat goes on the line once.
func TestCodexAppServerNoAltScreenValue(t *testing.T) {
	// Codex refuses the flag twice: a repeat goes on the line once.
	l, err := buildLaunch(launchkit.Input(appServerAccount("--no-alt-screen --no-alt-screen")))
	if err != nil || strings.Count(strings.Join(l.Argv, " "), "--no-alt-screen") != 1 {
		t.Errorf("a repeated --no-alt-screen: err %v, TUI line %q", err, l.Argv)
	}
	for _, o := range []string{"--no-alt-screen=1"} {
		l, err := buildLaunch(launchkit.Input(appServerAccount(o)))
		if !errors.Is(err, ErrOption) {
			t.Errorf("%q: err %v, TUI line %q", o, err, l.Argv)
		}
	}
}

// The room server on the server line must be loopback and the sidecar
// path absolute, as on the hook line.
func TestCodexAppServerChecksRoom(t *testing.T) {
	in := launchkit.Input(appServerAccount(""))
	in.RoomURL = "ws://example.com/room"
	if _, err := buildLaunch(in); !errors.Is(err, launch.ErrRoomAddress) {
		t.Errorf("non-loopback room: %v", err)
	}
	in = launchkit.Input(appServerAccount(""))
	in.RoomURL = ""
	if _, err := buildLaunch(in); !errors.Is(err, launch.ErrRoomAddress) {
		t.Errorf("no room: %v", err)
	}
	in = launchkit.Input(appServerAccount(""))
	in.PullceptPath = "pullcept"
	if _, err := buildLaunch(in); !errors.Is(err, launch.ErrNoPullceptPath) {
		t.Errorf("relative pullcept path: %v", err)
	}
}

// {session_id} in -m goes into the conversation's model, on no line.
func TestCodexAppServerPlaceholderInModel(t *testing.T) {
	for _, resume := range []bool{false, true} {
		in := launchkit.Input(appServerAccount("-m {session_id}"))
		if resume {
			in.Resume, in.SessionID = true, launchkit.Rec
		}
		l, err := buildLaunch(in)
		if !errors.Is(err, launch.ErrPlaceholder) {
			t.Errorf("resume %v: err %v, thread model %q", resume, err, codexPlan(l).Thread.Model)
		}
	}
}

// A kept line cut at codexServerLineMax bytes must stay UTF-8.
func TestCodexServerCutIsUTF8(t *testing.T) {
	cs := &codexServer{}
	l := cs.addOutput([]byte(strings.Repeat("a", codexServerLineMax-1) + strings.Repeat("é", 10) + "\n"))
	if len(l) != 1 || !utf8.ValidString(l[0]) {
		t.Errorf("kept %q", l)
	}
}

// v1 approval requests (execCommandApproval/applyPatchApproval, with
// conversationId) — the body reads conversationId for them.
func TestCodexActivityV1Approvals(t *testing.T) {
	for _, m := range []string{"execCommandApproval", "applyPatchApproval"} {
		a := newCodexActivity("T")
		a.apply(codexTestRequest(t, "1", m, map[string]any{"conversationId": "T", "callId": "c"}), time.Now())
		if !a.asking() {
			t.Errorf("%s: no wait", m)
		}
	}
}
