package tui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

// The attachments folder of the fake and a topic's files in it.
var (
	attRoot = nativeAbs("/data/logs/main/attachments")
	attPic  = filepath.Join(attRoot, "t-att", "shot 1.png")
	attPDF  = filepath.Join(attRoot, "t-att", "report.pdf")
)

const sep = string(filepath.Separator)

// attachedPost is a seat's post of text and a block of paths.
func attachedPost(id, text string, paths ...string) room.Post {
	return post(id, "Ada", room.AttachmentBlock{Text: text, Label: room.AttachmentsLabel, Paths: paths}.String(), 10)
}

// chatModel opens topic t-att holding posts, 120×40.
func chatModel(t *testing.T, f *fakeBackend, lang Lang, posts ...room.Post) *Model {
	t.Helper()
	f.history["t-att"] = posts
	opts := testOptions()
	opts.Lang = lang
	opts.StartTopic = "t-att"
	return newTestModel(t, f, opts, 120, 40)
}

// TestChatDrawsAttachmentChips: a post whose block lists files of the
// attachments folder is drawn as its text and name chips — the paths are
// not shown — in either language's label; drawing opens nothing.
func TestChatDrawsAttachmentChips(t *testing.T) {
	t.Parallel()
	f := newFake()
	ja := post("p2", "Ada", "日本語で\n\n添付:\n- "+attPDF, 11)
	m := chatModel(t, f, LangEnglish, attachedPost("p1", "see these", attPic, attPDF), ja)
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"see these", "▣ shot 1.png", "▤ report.pdf", "日本語で"} {
		if !strings.Contains(v, want) {
			t.Errorf("chat lacks %q:\n%s", want, v)
		}
	}
	for _, hidden := range []string{attRoot, "Attachments:", "添付:"} {
		if strings.Contains(v, hidden) {
			t.Errorf("chat shows %q:\n%s", hidden, v)
		}
	}
	if len(f.att.opened) != 0 {
		t.Fatalf("drawing opened %q", f.att.opened)
	}
}

// TestChatShowsOtherBlocksAsText: a block with any path outside the
// attachments folder — elsewhere, "..", a folder of its own, relative —
// and a clipped post's block are drawn as written, and Enter on them opens
// nothing: a seat's path never becomes something to open.
func TestChatShowsOtherBlocksAsText(t *testing.T) {
	t.Parallel()
	for _, p := range []room.Post{
		attachedPost("p1", "mixed", attPic, "/etc/passwd"),
		attachedPost("p1", "dotted", attRoot+sep+"t-att"+sep+".."+sep+".."+sep+"config.json"),
		attachedPost("p1", "loose", filepath.Join(attRoot, "loose.png")),
		attachedPost("p1", "deep", filepath.Join(attRoot, "t-att", "sub", "x.png")),
		attachedPost("p1", "relative", filepath.Join("logs", "main", "attachments", "t-att", "x.png")),
	} {
		f := newFake()
		m := chatModel(t, f, LangEnglish, p)
		if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Attachments:") || strings.Contains(v, "▣") {
			t.Errorf("%s: not drawn as written:\n%s", p.Content, v)
		}
		send(t, m, press("tab"))
		send(t, m, press("enter"))
		send(t, m, press("o"))
		if len(f.att.opened) != 0 {
			t.Errorf("%s: opened %q", p.Content, f.att.opened)
		}
	}
	clipped := attachedPost("p1", "long", attPic)
	clipped.Size = len(clipped.Content) + 10
	m := chatModel(t, newFake(), LangEnglish, clipped)
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "▣") {
		t.Errorf("a clipped post's block drawn as chips:\n%s", v)
	}
}

// TestChatOpensTheChosenChip: in the chat, Enter (or o) opens the
// selected post's chosen chip, →/← choose another; a click on a chip opens
// it. Refusals and failures say why on the status line, with the path.
func TestChatOpensTheChosenChip(t *testing.T) {
	t.Parallel()
	f := newFake()
	m := chatModel(t, f, LangEnglish, attachedPost("p1", "see these", attPic, attPDF))
	send(t, m, press("tab")) // chat focus: the post is selected
	send(t, m, press("enter"))
	send(t, m, press("right"))
	send(t, m, press("right")) // stays on the last
	send(t, m, press("o"))
	send(t, m, press("left"))
	send(t, m, press("enter"))
	if want := []string{attPic, attPDF, attPic}; !slices.Equal(f.att.opened, want) {
		t.Fatalf("opened %q, want %q", f.att.opened, want)
	}
	if m.status.text != "Opened shot 1.png." {
		t.Errorf("status %q", m.status.text)
	}

	x, y, ok := findOnScreen(m, "report.pdf")
	if !ok {
		t.Fatalf("no chip on screen:\n%s", ansi.Strip(m.View().Content))
	}
	send(t, m, mouseClick(x, y))
	if got := f.att.opened[len(f.att.opened)-1]; got != attPDF || m.chat.chip != 1 {
		t.Fatalf("the click opened %q, chip %d", got, m.chat.chip)
	}

	f.att.openErr = &AttachmentError{Path: attPDF, Reason: AttachmentRunnable}
	send(t, m, press("enter"))
	if want := "Not opened: report.pdf is not a picture, PDF, text or media file, so Pullcept does not open it (it could run as a program). If you trust it, open it yourself: " + attPDF; m.status.text != want {
		t.Errorf("refusal %q", m.status.text)
	}
	f.att.openErr = errNoOpenerForTest
	send(t, m, press("enter"))
	if !strings.Contains(m.status.text, "The file is at "+attPDF) {
		t.Errorf("failure %q", m.status.text)
	}
}

var errNoOpenerForTest = &testError{"xdg-open is not installed"}

type testError struct{ s string }

func (e *testError) Error() string { return e.s }

// findOnScreen is the cell where s first shows in the plain screen.
func findOnScreen(m *Model, s string) (x, y int, ok bool) {
	for y, line := range strings.Split(ansi.Strip(m.View().Content), "\n") {
		if i := strings.Index(line, s); i >= 0 {
			return ansi.StringWidth(line[:i]), y, true
		}
	}
	return 0, 0, false
}
