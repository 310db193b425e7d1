package seats

import (
	"strings"
	"testing"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"github.com/pullcept/pullcept/config"
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
