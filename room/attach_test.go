package room

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestAttachmentBlock: the body's block is written as the spec gives it
// (text, a blank line, the label, one path a line; the block alone without
// text) and read back to the same text, label and paths in either language.
func TestAttachmentBlock(t *testing.T) {
	t.Parallel()
	paths := []string{"/d/logs/main/attachments/t/a b.png", `C:\Users\me\pullcept\logs\main\attachments\t\r.pdf`}
	for _, tc := range []struct {
		a    AttachmentBlock
		want string
	}{
		{AttachmentBlock{Text: "look", Label: AttachmentsLabel, Paths: paths},
			"look\n\nAttachments:\n- " + paths[0] + "\n- " + paths[1]},
		{AttachmentBlock{Text: "見て\n\n", Label: AttachmentsLabelJa, Paths: paths[:1]}, "見て\n\n添付:\n- " + paths[0]},
		{AttachmentBlock{Text: "  \n", Label: AttachmentsLabel, Paths: paths[:1]}, "Attachments:\n- " + paths[0]},
		{AttachmentBlock{Text: "no files", Label: AttachmentsLabel}, "no files"},
	} {
		got := tc.a.String()
		if got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.a, got, tc.want)
			continue
		}
		back, ok := SplitAttachments(got)
		if len(tc.a.Paths) == 0 {
			if ok {
				t.Errorf("SplitAttachments(%q) found a block", got)
			}
			continue
		}
		if !ok || back.Text != strings.TrimSpace(tc.a.Text) || back.Label != tc.a.Label || !slices.Equal(back.Paths, tc.a.Paths) {
			t.Errorf("SplitAttachments(%q) = %+v %v, want %+v", got, back, ok, tc.a)
		}
	}
}

// TestSplitAttachmentsOnlyAtTheEnd: only a label line that opens the last
// paragraph, with 1..MaxAttachments non-blank lines after it, is a block;
// anything else is text.
func TestSplitAttachmentsOnlyAtTheEnd(t *testing.T) {
	t.Parallel()
	many := strings.Repeat("\n- /p", MaxAttachments)
	for _, tc := range []struct {
		content string
		ok      bool
		text    string
	}{
		{"hi\n\nAttachments:\n- /a\n- /b\n", true, "hi"},
		{"Attachments:\n- /a", true, ""},
		{"hi\n\n添付:\n- /a", true, "hi"},
		{"a\n\nb\n\nAttachments:" + many, true, "a\n\nb"},
		{"a\n \nAttachments:\n- /a", true, "a"},
		{"hi\n\nAttachments:\n/a", false, ""},                // a bare path is no item
		{"hi\n\nAttachments:\n- ", false, ""},                // an empty item
		{"hi\nAttachments:\n- /a", false, ""},                // no blank line before
		{"hi\n\nAttachments:", false, ""},                    // no paths
		{"hi\n\nAttachments:\n- /a\n\nmore text", false, ""}, // not at the end
		{"hi\n\nAttachments:\n- /a\n\n- /b", false, ""},      // a blank line inside
		{"hi\n\nattachments:\n- /a", false, ""},              // the label as written
		{"hi\n\nAttachments: \n- /a", false, ""},
		{"hi\n\nAttachments:" + many + "\n- /p", false, ""}, // over MaxAttachments
		{"", false, ""},
	} {
		a, ok := SplitAttachments(tc.content)
		if ok != tc.ok || ok && a.Text != tc.text {
			t.Errorf("SplitAttachments(%q) = %+v %v, want ok %v text %q", tc.content, a, ok, tc.ok, tc.text)
		}
		if ok && slices.ContainsFunc(a.Paths, func(p string) bool { return strings.HasPrefix(p, "- ") }) {
			t.Errorf("SplitAttachments(%q) kept the item marks: %q", tc.content, a.Paths)
		}
	}
}

// TestMentionsLeaveTheAttachmentBlock: mentions are taken from the text
// only, so a path holding "@Lin/" (a data directory under /home/@Lin)
// reaches the log and the seats whole; mentions and attachments alone make
// a post of the block alone, not a refusal.
func TestMentionsLeaveTheAttachmentBlock(t *testing.T) {
	t.Parallel()
	terms := newFakeTerms("t/cc")
	h := newTestHub(t, nil, terms, testAccounts)
	h.SetAdmin(Hello{Name: "me", AccountID: "me"})
	mustOpen(t, h, "t")
	seat(t, h, "t", "Lin", "cc")
	path := "/home/@Lin/.config/pullcept/logs/main/attachments/t/a.png"
	for _, tc := range []struct{ text, want string }{
		{"look @Lin", "look\n\nAttachments:\n- " + path},
		{"@Lin", "Attachments:\n- " + path},
		{"no mention", "no mention\n\nAttachments:\n- " + path},
	} {
		body := AttachmentBlock{Text: tc.text, Label: AttachmentsLabel, Paths: []string{path}}.String()
		p := uiSay(t, h, "t", body)
		if p.Content != tc.want {
			t.Errorf("post %q delivered as %q, want %q", body, p.Content, tc.want)
		}
		wantTo := []string{"Lin"}
		if !strings.Contains(tc.text, "@") {
			wantTo = nil
		}
		if !slices.Equal(p.To, wantTo) {
			t.Errorf("post %q addressed to %q, want %q", body, p.To, wantTo)
		}
	}
	// Without a block the whole body is read for mentions, as before: the
	// path loses its "@Lin" (what the block keeps from happening).
	if p := uiSay(t, h, "t", fmt.Sprintf("see %s @Lin", path)); p.Content != "see /home//.config/pullcept/logs/main/attachments/t/a.png" {
		t.Errorf("a path in plain text: %q", p.Content)
	}
}

// FuzzSplitAttachments: a block read from any content writes back to a
// body that reads as the same block, and never lists more than
// MaxAttachments paths or a blank one.
func FuzzSplitAttachments(f *testing.F) {
	f.Add("hi\n\nAttachments:\n- /a\n- /b")
	f.Add("添付:\n- /a\n")
	f.Add("x\n \nAttachments:\n- \n- /a")
	f.Add("Attachments:\n- - /a")
	f.Fuzz(func(t *testing.T, content string) {
		a, ok := SplitAttachments(content)
		if !ok {
			return
		}
		if len(a.Paths) == 0 || len(a.Paths) > MaxAttachments || slices.ContainsFunc(a.Paths, func(p string) bool { return strings.TrimSpace(p) == "" }) {
			t.Fatalf("SplitAttachments(%q) = %+v", content, a)
		}
		b, ok := SplitAttachments(a.String())
		if !ok || b.Label != a.Label || !slices.Equal(b.Paths, a.Paths) || b.Text != strings.TrimRight(a.Text, " \t\r\n") && strings.TrimSpace(a.Text) != "" {
			t.Fatalf("%+v written as %q reads back as %+v %v", a, a.String(), b, ok)
		}
	})
}
