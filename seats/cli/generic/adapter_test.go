package generic

import (
	"errors"
	"slices"
	"testing"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/launch"
)

func TestGenericLines(t *testing.T) {
	t.Parallel()
	a := launchkit.Account(config.KindCLI)
	l := mustLaunch(t, launchkit.Input(a))
	if !slices.Equal(l.Argv, []string{"aider", "--yes"}) || l.SessionID != "" {
		t.Errorf("plain generic: %q id %q", l.Argv, l.SessionID)
	}
	if m := mustLaunch(t, launchkit.Input(a)); m.MCPKey != launch.MCPKey(a.ID, launchkit.Topic) {
		t.Errorf("key %q", m.MCPKey)
	}

	calls := 0
	a.LaunchOptions = "--session {session_id} --log=/tmp/{session_id}.log"
	in := launchkit.Input(a)
	in.NewID = func() (string, error) { calls++; return launchkit.ID, nil }
	l = mustLaunch(t, in)
	want := []string{"aider", "--session", launchkit.ID, "--log=/tmp/" + launchkit.ID + ".log"}
	if !slices.Equal(l.Argv, want) || l.SessionID != launchkit.ID || calls != 1 {
		t.Errorf("generic with placeholder: %q id %q (%d ids made)", l.Argv, l.SessionID, calls)
	}

	a.ResumeLine = "aider --restore {session_id} --yes"
	in = launchkit.Input(a)
	in.Resume, in.SessionID = true, launchkit.Rec
	l = mustLaunch(t, in)
	if !slices.Equal(l.Argv, []string{"aider", "--restore", launchkit.Rec, "--yes"}) || l.SessionID != launchkit.Rec {
		t.Errorf("generic resume: %q", l.Argv)
	}
	a.ResumeLine = "aider --continue"
	in.Account = a
	if l = mustLaunch(t, in); len(l.Warnings) != 1 {
		t.Errorf("resume line without {session_id} gave no warning: %q", l.Warnings)
	}
	a.ResumeLine = ""
	in.Account = a
	if _, err := buildLaunch(in); !errors.Is(err, launch.ErrNoResumeLine) {
		t.Errorf("resume without a line: %v", err)
	}
}
