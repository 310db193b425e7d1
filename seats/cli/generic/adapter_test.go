package generic

import (
	"errors"
	"slices"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/launch"
)

func TestGenericLines(t *testing.T) {
	t.Parallel()
	a := testAccount(config.KindCLI)
	l := mustLaunch(t, testInput(a))
	if !slices.Equal(l.Argv, []string{"aider", "--yes"}) || l.SessionID != "" {
		t.Errorf("plain generic: %q id %q", l.Argv, l.SessionID)
	}
	if m := mustLaunch(t, testInput(a)); m.MCPKey != launch.MCPKey(a.ID, testTopic) {
		t.Errorf("key %q", m.MCPKey)
	}

	calls := 0
	a.LaunchOptions = "--session {session_id} --log=/tmp/{session_id}.log"
	in := testInput(a)
	in.NewID = func() (string, error) { calls++; return testID, nil }
	l = mustLaunch(t, in)
	want := []string{"aider", "--session", testID, "--log=/tmp/" + testID + ".log"}
	if !slices.Equal(l.Argv, want) || l.SessionID != testID || calls != 1 {
		t.Errorf("generic with placeholder: %q id %q (%d ids made)", l.Argv, l.SessionID, calls)
	}

	a.ResumeLine = "aider --restore {session_id} --yes"
	in = testInput(a)
	in.Resume, in.SessionID = true, testRec
	l = mustLaunch(t, in)
	if !slices.Equal(l.Argv, []string{"aider", "--restore", testRec, "--yes"}) || l.SessionID != testRec {
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
