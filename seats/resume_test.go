package seats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/seats/cli"
)

func TestDecideResume(t *testing.T) {
	t.Parallel()
	claude := config.Account{Name: "Lin", Kind: config.KindClaudeCode}
	codex := config.Account{Name: "Cx", Kind: config.KindCodexCLI}
	generic := config.Account{Name: "G", Kind: config.KindCLI, ResumeLine: "g --resume {session_id}"}
	bare := config.Account{Name: "B", Kind: config.KindCLI}
	admin := config.Account{Name: "Me", Kind: config.KindAdmin}
	tests := []struct {
		name         string
		a            config.Account
		id           string
		c            cli.Conversation
		resume, drop bool
		reason       bool
	}{
		{"no record", claude, "", 0, false, false, false},
		{"claude with transcript", claude, launchkit.Rec, cli.ConversationResumes, true, false, true},
		{"claude transcript gone", claude, launchkit.Rec, cli.ConversationGone, false, true, true},
		{"codex rollout gone", codex, launchkit.Rec, cli.ConversationGone, false, true, true},
		{"codex with rollout", codex, launchkit.Rec, cli.ConversationResumes, true, false, true},
		{"generic with line: unknown is not missing", generic, launchkit.Rec, conversationOf(generic), true, false, true},
		{"generic without line keeps the record", bare, launchkit.Rec, conversationOf(bare), false, false, true},
		{"admin", admin, launchkit.Rec, cli.ConversationResumes, false, false, false},
	}
	for _, tt := range tests {
		resume, drop, reason := DecideResume(tt.a, tt.id, tt.c)
		if resume != tt.resume || drop != tt.drop || (reason != "") != tt.reason {
			t.Errorf("%s: resume %v drop %v reason %q", tt.name, resume, drop, reason)
		}
		if drop && !strings.Contains(reason, tt.id) {
			t.Errorf("%s: the status line should name the dropped id: %q", tt.name, reason)
		}
	}
	for _, tt := range []struct {
		size      int64
		resumed   bool
		seen      int64
		seenKnown bool
		want      bool
	}{
		{0, false, 0, false, false}, // fresh, no posts
		{10, false, 0, false, true}, // fresh, posts
		{10, false, 10, true, true}, // fresh: a mark of an old session does not count
		{0, true, 0, false, false},  // resumed, no posts
		{10, true, 10, true, false}, // resumed, nothing since it stopped
		{25, true, 10, true, true},  // resumed, posts since it stopped
		{10, true, 0, false, true},  // resumed without a mark: told
		{10, true, 0, true, true},   // stopped before the first post
	} {
		if got := UnseenHistory(tt.size, tt.resumed, tt.seen, tt.seenKnown); got != tt.want {
			t.Errorf("UnseenHistory(%d, %v, %d, %v) = %v", tt.size, tt.resumed, tt.seen, tt.seenKnown, got)
		}
	}
}

// TestConversationCheckFailureKeepsRecord: a resume check that cannot look
// (CODEX_HOME's sessions not a folder: ENOTDIR; no home folder at all)
// keeps the topic's id and tries the resume; only a conversation looked
// for and not found is dropped (docs/design.md §9 "Resume", spec: 権限／I/O
// エラーで調べられない時は ID を保持して明示 resume を試す).
func TestConversationCheckFailureKeepsRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notDir := filepath.Join(dir, "not-dir")
	if err := os.MkdirAll(notDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notDir, "sessions"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	a := config.Account{ID: "cx", Name: "Cx", Kind: config.KindCodexCLI, Command: "codex", WorkDir: dir}
	for _, tt := range []struct {
		name string
		env  []string
		want Outlook
	}{
		{"sessions not a folder", []string{"CODEX_HOME=" + notDir}, OutlookResumes},
		{"no home folder", nil, OutlookResumes},
		{"looked for, not found", []string{"CODEX_HOME=" + empty}, OutlookGone},
	} {
		store, err := logstore.Open(filepath.Join(t.TempDir(), "data"), logstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = store.Close() })
		m, err := NewManager(ManagerOptions{
			Sessions: store,
			Accounts: func(string) (config.Account, bool) { return a, true },
			Environ:  func() []string { return tt.env },
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		if err := store.RecordSession("topic-1", a.ID, launchkit.Rec); err != nil {
			t.Fatal(err)
		}
		if got := m.NextStart("topic-1", a.ID); got != tt.want {
			t.Errorf("%s: NextStart = %v, want %v", tt.name, got, tt.want)
		}
		p := &startPlan{topic: "topic-1", account: a.ID, acct: a, adapter: m.kinds[a.Kind]}
		if err := m.decideResume(p); err != nil {
			t.Fatalf("%s: decideResume: %v", tt.name, err)
		}
		id, _ := store.Session("topic-1", a.ID)
		if keep := tt.want == OutlookResumes; p.resume != keep || (id == launchkit.Rec) != keep || (p.res.Dropped == "") != keep {
			t.Errorf("%s: resume %v, record %q, dropped %q; want the record kept and resumed: %v", tt.name, p.resume, id, p.res.Dropped, keep)
		}
	}
}
