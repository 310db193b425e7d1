package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// longClaude is the demo's Claude account, its command deep in a checkout.
func longClaude(f *fakeBackend) {
	f.accounts[1].Command = "/home/someone/src/github.com/pullcept/pullcept/testdata/clis/node_modules/.bin/claude"
}

// TestEditorLabelsAndHintsShowWhole: at 80×24 in both languages every
// field label fits its column (issue 35: 「環境変数（NAME=」 was cut
// without a mark), each permission mode's meaning shows whole under it
// (「…カードは」 was cut), the command path keeps its file name, cut in its
// middle with "…" (its "/claude" was cut away), and the Japanese form of an
// env line is said in its empty field.
func TestEditorLabelsAndHintsShowWhole(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		e := testEnv(lang)
		for f := fKind; f <= fSrvEnv; f++ {
			if l := fieldLabel(e, f); ansi.StringWidth(l) > edLabelW {
				t.Errorf("%s: label %q is wider than its column (%d)", lang, l, edLabelW)
			}
		}
		f := scene()
		longClaude(f)
		m := openLin(t, f, 80, 24, lang)
		v := plain(m)
		if !strings.Contains(v, "…/claude") || strings.Contains(v, "/.bin ") {
			t.Errorf("%s: the command does not keep its file name:\n%s", lang, v)
		}
		if lang == LangJapanese && !strings.Contains(v, "—（NAME=値 を一行に一つ）") {
			t.Errorf("ja: the env field does not say its form:\n%s", v)
		}
		editField(t, m, fPermMode)
		for range PermissionModes {
			_, hint := permModeWords(m.overlay.editor.acc.PermissionMode)
			flat := strings.NewReplacer("│", "", " ", "", "\n", "").Replace(plain(m))
			if !strings.Contains(flat, strings.ReplaceAll(e.tr.t(hint), " ", "")) {
				t.Errorf("%s: mode %q: its meaning is not whole:\n%s", lang, m.overlay.editor.acc.PermissionMode, plain(m))
			}
			send(t, m, press("right"))
		}
	}
}

// TestDetailsCommandKeepsItsFileName: a seat's details cut a long program
// path in its middle, keeping its file name, and give the arguments the
// next line.
func TestDetailsCommandKeepsItsFileName(t *testing.T) {
	t.Parallel()
	got := commandLines("/home/someone/src/pullcept/testdata/clis/node_modules/.bin/claude --session-id abc --settings {}", 20)
	if len(got) != 2 || !strings.HasSuffix(got[0], "…/claude") || ansi.StringWidth(got[0]) > 20 || !strings.HasPrefix(got[1], "--session-id") {
		t.Fatalf("command lines %q", got)
	}
	if got := commandLines("claude --session-id abc", 30); len(got) != 1 || got[0] != "claude --session-id abc" {
		t.Fatalf("a short command: %q", got)
	}
	for w := 3; w <= 40; w++ {
		p := cutPath("/home/someone/node_modules/.bin/claude", w)
		if ansi.StringWidth(p) > w {
			t.Fatalf("cutPath at %d: %q", w, p)
		}
	}
}

// TestChatEmptyKeepsTheAtSign: the empty chat's hint never leaves "@" at
// a line's end, away from the name it stands for (issue 35: 「ください。@」
// / 「で宛先を…」, "Write below; @" / "addresses someone."), at any width,
// nor does the help's "(@ popup)".
func TestChatEmptyKeepsTheAtSign(t *testing.T) {
	t.Parallel()
	for _, lang := range []Lang{LangEnglish, LangJapanese} {
		m := newTestModel(t, scene(), testOptionsLang(lang), 80, 24)
		for w := 20; w <= 80; w++ {
			m.chat.setSize(w, 10)
			m.chat.render(&m.env)
			var lines []string
			for _, l := range m.chat.view {
				if l = strings.TrimSpace(ansi.Strip(l)); l != "" {
					lines = append(lines, l)
				}
			}
			for _, l := range lines {
				if strings.HasSuffix(l, "@") {
					t.Fatalf("%s at %d: %q", lang, w, lines)
				}
			}
			if !strings.Contains(strings.Join(lines, ""), "@") {
				t.Fatalf("%s at %d: no @ hint: %q", lang, w, lines)
			}
		}
	}
	// The help's "(@ popup)" too.
	for _, s := range []string{"名前を選ぶ（@ の候補）", "pick a name (@ popup)"} {
		for w := 4; w <= 30; w++ {
			for _, l := range wrapWords(s, w) {
				if strings.HasSuffix(l, "@") {
					t.Fatalf("%q at %d: %q", s, w, wrapWords(s, w))
				}
			}
		}
	}
}

// TestJapaneseSaysItInJapanese: what the Japanese screen said in English
// or in odd words (issue 35) — the admin group, the terminal ring in tmux,
// a room tool's raw name, the editor's id label, 未記入, 文脈, 道具 — now
// reads as Claude Code's and Codex's Japanese users know it; an MCP tool is
// named by its own name in both languages.
func TestJapaneseSaysItInJapanese(t *testing.T) {
	t.Parallel()
	ja, en := testEnv(LangJapanese), testEnv(LangEnglish)
	for _, c := range []struct{ got, want string }{
		{kindLabel(ja, KindAdmin), "管理者"},
		{ja.tr.t(mEdID), "アカウント ID"},
		{ja.tr.t(mTopicUntitled), "無題"},
		{ja.tr.t(mUsageCtx), "コンテキスト"},
		{ja.tr.t(mEdPermManualHint), "ツールごとに確認し、ここにカードが出ます"},
		{toolWord(ja.tr, "mcp__pullcept-room-claude-4d82ba4b56__say_to_room"), "部屋を使用中"},
		{toolWord(en.tr, "mcp__pullcept-room-claude-4d82ba4b56__say_to_room"), "using the room"},
		{toolWord(ja.tr, "mcp__github__create_issue"), "create_issue を実行中"},
		{toolWord(en.tr, "Bash"), "running Bash"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	tmux := envOf(map[string]string{"TMUX": "/tmp/tmux-1000/default,1,0"})
	if _, why := chooseRing("", tmux, ja.tr); why != "tmux 内、BEL" {
		t.Errorf("ja ring in tmux: %q", why)
	}
	for k, e := range messages {
		for _, word := range []string{"未記入", "文脈", "道具"} {
			if strings.Contains(e[1], word) {
				t.Errorf("message %d still says %s: %q", k, word, e[1])
			}
		}
	}
	m := sceneModel(t, scene(), 80, 24, LangJapanese)
	if v := plain(m); !strings.Contains(v, "管理者 — 1") || strings.Contains(v, "admin — 1") {
		t.Errorf("the accounts panel:\n%s", v)
	}
}

// TestGoldenJapaneseLabels: the account editor on the demo's Claude
// account (a long command path) and the accounts panel, at 80×24 and
// 200×60, English and Japanese.
func TestGoldenJapaneseLabels(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		lang Lang
	}{{"80x24", 80, 24, LangEnglish}, {"80x24ja", 80, 24, LangJapanese}, {"200x60", 200, 60, LangEnglish}, {"200x60ja", 200, 60, LangJapanese}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := scene()
			longClaude(f)
			f.accounts[1].PermissionMode = ""
			m := openLin(t, f, tc.w, tc.h, tc.lang)
			golden.RequireEqual(t, m.View().Content)
		})
	}
}
