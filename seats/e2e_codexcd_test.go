//go:build linux || darwin

package seats_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli/codex"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// TestE2ECodexHookCdDir: a hook-mode seat of the real Codex started with
// --cd sub (issue 34 item 13) works in <working dir>/sub: its first turn's
// rollout names that directory, and the Manager finds the seat's session
// there and records it (before, it looked for a rollout of the working
// directory and never found one: the seat kept no session). Stopped and
// started again, it resumes that session with --cd on the resume line
// and answers.
func TestE2ECodexHookCdDir(t *testing.T) {
	r := newRig(t, nil)
	cody := r.codexAccount("cody", "Cody")
	sub := filepath.Join(cody.WorkDir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cody.LaunchOptions = "--cd sub"
	r.addAccount(cody)
	setup := fakeapi.CodexSetup{Home: filepath.Join(t.TempDir(), "codex-home"), WorkDirs: []string{sub}, BaseURL: r.base}
	env, err := fakeapi.PrepareCodex(setup)
	if err != nil {
		t.Fatal(err)
	}
	r.setEnv(env)
	started := time.Now().Add(-time.Minute)
	_, s := r.start(cody.ID)
	r.waitReady(cody.ID, s)
	r.post("hello @Cody")
	r.waitPost("Cody's reply", func(p room.Post) bool { return p.Account == cody.ID })
	id := codexSessionRecorded(t, r, cody.ID, s, setup.Home)
	inSub, err := codex.RolloutsSince(setup.Home, sub, started)
	if err != nil || !slices.ContainsFunc(inSub, func(cs codex.Session) bool { return cs.ID == id }) {
		t.Fatalf("rollouts of %s: %+v, %v; want the recorded session %s", sub, inSub, err, id)
	}

	if err := r.mgr.Stop(e2eTopic, cody.ID); err != nil {
		t.Fatalf("stop: %v", err)
	}
	codexResumes(t, r, cody.ID, id)
	if argv := r.seatInfo(cody.ID).Argv; !slices.Contains(argv, "--cd") {
		t.Errorf("resumed argv = %q, want --cd sub on it", argv)
	}
}
