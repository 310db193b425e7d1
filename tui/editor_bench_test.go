package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// longPreview is a launch line as long as a real fresh Claude Code seat's
// (the --settings JSON with its status line and eight hooks, ~2 KB).
func longPreview() string {
	var b strings.Builder
	b.WriteString(`claude --session-id 00000000-0000-4000-8000-000000000000 --settings '{"enabledMcpjsonServers":["pullcept-room-lin-0123456789"],"permissions":{"allow":["mcp__pullcept-room-lin-0123456789__say_to_room"]},"statusLine":{"type":"command","command":"/usr/local/bin/pullcept status-line http://127.0.0.1:40123/hooks/status/t/lin"},"hooks":{`)
	for _, ev := range []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "SubagentStart", "SubagentStop", "Stop", "UserPromptSubmit"} {
		b.WriteString(`"` + ev + `":[{"hooks":[{"type":"http","url":"http://127.0.0.1:40123/hooks/activity/` + ev + `/t/lin","timeout":5,"headers":{"Authorization":"Bearer $PULLCEPT_ROOM_TOKEN"},"allowedEnvVars":["PULLCEPT_ROOM_TOKEN"]}]}],`)
	}
	b.WriteString(`}}' --append-system-prompt 'You are a seat in a Pullcept chat room. Speak to the room only by calling the tool mcp__pullcept-room-lin-0123456789__say_to_room.'`)
	return b.String()
}

// BenchmarkTypeKey is what one typed key costs the UI loop, Update and
// View, in the input bar and in the account editor at 200×50 (issue 12:
// typing in the editor echoed 18× slower than in the input bar). A key
// in the editor also brings the launch preview's answer back through
// Update and View: that is part of the key's cost. Keys alternate between
// a letter and backspace so the text stays the same length.
func BenchmarkTypeKey(b *testing.B) {
	keys := [2]tea.KeyPressMsg{{Code: 'a', Text: "a"}, press("backspace")}
	line := longPreview()
	b.Run("input", func(b *testing.B) {
		m := sceneModel(b, scene(), 200, 50, LangEnglish)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			m.Update(keys[i%2])
			_ = m.View()
		}
	})
	b.Run("editorKeyOnly", func(b *testing.B) {
		// The key's own Update and View, as the input bar's: the preview
		// answer it brings is left out.
		m := sceneModel(b, scene(), 200, 50, LangEnglish)
		m.openEditor(m.accounts.list[1], false)
		m.overlay.editor.preview = line
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			m.Update(keys[i%2])
			_ = m.View()
		}
	})
	b.Run("editor", func(b *testing.B) {
		m := sceneModel(b, scene(), 200, 50, LangEnglish)
		m.openEditor(m.accounts.list[1], false)
		ed := m.overlay.editor
		done := func() previewDoneMsg {
			return previewDoneMsg{ed: ed, seq: ed.previewSeq, acc: ed.collect(), line: line,
				check: AccountCheck{CharacterVia: "outputStyle"}}
		}
		send(b, m, done())
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			m.Update(keys[i%2])
			_ = m.View()
			m.Update(done())
			_ = m.View()
		}
	})
}
