package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/pullcept/pullcept/room"
)

var f4 = tea.KeyPressMsg{Code: tea.KeyF4}

// attachScene is a fake with a folder of files to attach: /w/ holds
// "shot 1.png", "shot 2.png", "report.pdf", "sub/" and a hidden file.
func attachScene() *fakeBackend {
	f := newFake()
	f.att.dirs = map[string][]DirEntry{
		"":        {{Name: "w", Dir: true}},
		"/w/":     {{Name: ".hidden"}, {Name: "report.pdf"}, {Name: "shot 1.png"}, {Name: "shot 2.png"}, {Name: "sub", Dir: true}},
		"/w/sub/": {{Name: "deep.txt"}},
	}
	for _, p := range []string{"/w/report.pdf", "/w/shot 1.png", "/w/shot 2.png", "/w/sub/deep.txt"} {
		f.addFile(p, 1234)
	}
	return f
}

// inputText is the input bar as plain text.
func inputText(m *Model) string { return ansi.Strip(strings.Join(m.input.view, "\n")) }

// attach picks path in the attach prompt by typing it over what the
// prompt starts with (Ctrl+U) and pressing Enter.
func attach(t *testing.T, m *Model, path string) {
	t.Helper()
	send(t, m, f4)
	if m.overlay.open != ovAttach {
		t.Fatalf("F4 did not open the attach prompt")
	}
	send(t, m, press("ctrl+u"))
	typeText(t, m, path)
	send(t, m, press("enter"))
}

// TestAttachPromptCompletes: F4 opens the prompt and lists the folder
// typed; Tab completes the common start, then highlights, then takes the
// highlighted entry; a folder descends; Enter attaches the file as a chip
// above the text and closes the prompt (docs/design.md §10 "Attachments").
func TestAttachPromptCompletes(t *testing.T) {
	t.Parallel()
	f := attachScene()
	m := newTestModel(t, f, testOptions(), 120, 40)
	send(t, m, f4)
	typeText(t, m, "/w/s")
	p := m.attachPicker()
	if got := names(p.matches()); got != "shot 1.png,shot 2.png,sub" {
		t.Fatalf("matches of /w/s: %s", got)
	}
	typeText(t, m, "h")
	send(t, m, press("tab")) // the common start
	if v := p.in.Value(); v != "/w/shot " {
		t.Fatalf("Tab completed to %q", v)
	}
	send(t, m, press("tab")) // nothing more in common: the first is highlighted
	send(t, m, press("down"))
	send(t, m, press("tab")) // takes it
	if v := p.in.Value(); v != "/w/shot 2.png" {
		t.Fatalf("Tab took %q", v)
	}
	view := ansi.Strip(m.View().Content)
	if !strings.Contains(view, "Attach a file") || !strings.Contains(view, "shot 2.png") {
		t.Fatalf("the prompt is not drawn:\n%s", view)
	}
	send(t, m, press("enter"))
	if m.overlay.open != ovNone || len(m.input.chips) != 1 || m.input.chips[0].file.Path != "/w/shot 2.png" {
		t.Fatalf("Enter did not attach: overlay %v chips %+v", m.overlay.open, m.input.chips)
	}
	if in := inputText(m); !strings.Contains(in, "▣ shot 2.png ✕") {
		t.Fatalf("no chip in the input bar:\n%s", in)
	}
	if !strings.Contains(m.status.text, "Attached shot 2.png") {
		t.Errorf("status %q", m.status.text)
	}

	// The prompt opens again in the last file's folder; a folder descends.
	send(t, m, f4)
	p = m.attachPicker()
	if v := p.in.Value(); v != "/w/" {
		t.Fatalf("the prompt starts at %q", v)
	}
	typeText(t, m, "su")
	send(t, m, press("tab"))
	if v := p.in.Value(); v != "/w/sub/" || names(p.matches()) != "deep.txt" {
		t.Fatalf("into the folder: %q %s", v, names(p.matches()))
	}
	if !slices.Contains(f.att.lists, "/w/sub/") {
		t.Errorf("the folder was not listed: %q", f.att.lists)
	}
	send(t, m, press("esc"))
	if m.overlay.open != ovNone || len(m.input.chips) != 1 {
		t.Fatalf("Esc: overlay %v, chips %d", m.overlay.open, len(m.input.chips))
	}
}

func names(des []DirEntry) string {
	var out []string
	for _, d := range des {
		out = append(out, d.Name)
	}
	return strings.Join(out, ",")
}

// TestAttachRefusals: a 2 GB file and a file that is not there are
// refused in the prompt with the reason (sizes and the cap), the typed
// path kept; the same file twice and a seventeenth file are refused too.
func TestAttachRefusals(t *testing.T) {
	t.Parallel()
	f := attachScene()
	f.att.refuse = map[string]error{"/w/huge.bin": &AttachmentError{Path: "/w/huge.bin", Reason: AttachmentTooLarge, Size: 2 << 30, Limit: 100 << 20}}
	m := newTestModel(t, f, testOptions(), 120, 40)
	attach(t, m, "/w/huge.bin")
	p := m.attachPicker()
	if p == nil || p.in.Value() != "/w/huge.bin" || p.note != "/w/huge.bin is 2.0 GiB; an attachment is at most 100.0 MiB." {
		t.Fatalf("2 GB refusal: %+v", p)
	}
	if !strings.Contains(ansi.Strip(m.View().Content), "2.0 GiB") {
		t.Errorf("the refusal is not shown")
	}
	p.in.SetValue("")
	typeText(t, m, "/w/gone.txt")
	send(t, m, press("enter"))
	if p.note != "/w/gone.txt is not there (gone, or the path is mistyped)." || len(m.input.chips) != 0 {
		t.Fatalf("gone: %q, %d chips", p.note, len(m.input.chips))
	}
	send(t, m, press("esc"))

	attach(t, m, "/w/report.pdf")
	attach(t, m, "/w/report.pdf")
	if p := m.attachPicker(); p == nil || p.note != "report.pdf is already attached." || len(m.input.chips) != 1 {
		t.Fatalf("twice: %+v, %d chips", p, len(m.input.chips))
	}
	send(t, m, press("esc"))
	for i := len(m.input.chips); i < room.MaxAttachments; i++ {
		m.input.addChip(&m.env, AttachmentFile{Path: "/x/" + string(rune('a'+i)), Name: string(rune('a' + i))})
	}
	attach(t, m, "/w/shot 1.png")
	if p := m.attachPicker(); p == nil || p.note != "A post carries at most 16 attachments." {
		t.Fatalf("a 17th: %+v", p)
	}
}

// TestSendWithAttachments: Send copies each chip under the open topic and
// the body ends in the block of the copies' paths — the English label in
// English, the Japanese one in Japanese; attachments alone are the block
// alone; the chips leave the bar.
func TestSendWithAttachments(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang        Lang
		text, label string
	}{{LangEnglish, "look", "Attachments:"}, {LangJapanese, "見て", "添付:"}, {LangEnglish, "", "Attachments:"}} {
		f := attachScene()
		opts := testOptions()
		opts.Lang = tc.lang
		m := newTestModel(t, f, opts, 120, 40)
		attach(t, m, "/w/shot 1.png")
		attach(t, m, "/w/report.pdf")
		typeText(t, m, tc.text)
		send(t, m, press("enter"))
		topic := m.topics.open
		want := tc.label + "\n- /data/logs/main/attachments/" + topic + "/shot 1.png\n- /data/logs/main/attachments/" + topic + "/report.pdf"
		if tc.text != "" {
			want = tc.text + "\n\n" + want
		}
		if len(f.posts) != 1 || f.posts[0].Content != want {
			t.Fatalf("%s: posted %+v, want %q", tc.lang, f.posts, want)
		}
		if len(f.att.saves) != 2 || len(m.input.chips) != 0 || m.input.value() != "" {
			t.Fatalf("%s: saves %q, chips left %d, text %q", tc.lang, f.att.saves, len(m.input.chips), m.input.value())
		}
	}
}

// TestSendWithAVanishedAttachment: a file gone between pick and send is
// refused at send with its name; nothing is posted; the text and every
// chip come back, the chips already copied remembering where, so the next
// send (without the gone one) copies nothing twice.
func TestSendWithAVanishedAttachment(t *testing.T) {
	t.Parallel()
	f := attachScene()
	m := newTestModel(t, f, testOptions(), 120, 40)
	attach(t, m, "/w/shot 1.png")
	attach(t, m, "/w/report.pdf")
	f.mu.Lock()
	delete(f.att.files, "/w/report.pdf") // deleted after it was picked
	f.mu.Unlock()
	typeText(t, m, "the words I wrote")
	send(t, m, press("enter"))
	if len(f.posts) != 0 {
		t.Fatalf("posted: %+v", f.posts)
	}
	if m.input.value() != "the words I wrote" || len(m.input.chips) != 2 || m.input.chips[0].saved == "" {
		t.Fatalf("text %q, chips %+v", m.input.value(), m.input.chips)
	}
	want := "Not sent: /w/report.pdf is not there (gone, or the path is mistyped). Your text and attachments are back in the input (Ctrl+X removes the last attachment)."
	if m.status.text != want {
		t.Fatalf("status %q", m.status.text)
	}
	send(t, m, press("ctrl+x"))
	send(t, m, press("enter"))
	if len(f.posts) != 1 || !strings.HasSuffix(f.posts[0].Content, "/shot 1.png") || len(f.att.saves) != 2 {
		t.Fatalf("resend: posts %+v, saves %q", f.posts, f.att.saves)
	}
}

// TestRejectedPostKeepsItsCopies: a floor rejection brings the text and
// chips back with their copies; sending again to the topic copies nothing
// again, another topic copies them there (spec «床が拒んだ発言の札は、保存し
// た先を覚えて戻る»).
func TestRejectedPostKeepsItsCopies(t *testing.T) {
	t.Parallel()
	f := attachScene()
	rejections := 1
	f.postFn = func(topic string, d room.Draft) (room.Result, error) {
		if rejections > 0 {
			rejections--
			return room.Result{Missed: []room.Post{post("m9", "Ada", "first", 1)}}, nil
		}
		return room.Result{Delivered: true, Post: room.Post{MessageID: d.MessageID, Role: room.RoleAdmin, Content: d.Content, TS: d.TS}}, nil
	}
	m := newTestModel(t, f, testOptions(), 120, 40)
	attach(t, m, "/w/shot 1.png")
	typeText(t, m, "hi")
	send(t, m, press("enter"))
	if m.input.value() != "hi" || len(m.input.chips) != 1 || m.input.chips[0].topic != m.topics.open {
		t.Fatalf("after the rejection: %q %+v", m.input.value(), m.input.chips)
	}
	send(t, m, press("enter"))
	if len(f.att.saves) != 1 || len(f.posts) != 2 || f.posts[1].Content != f.posts[0].Content {
		t.Fatalf("the resend copied again or changed: saves %q posts %+v", f.att.saves, f.posts)
	}

	rejections = 1
	attach(t, m, "/w/report.pdf")
	send(t, m, press("enter")) // rejected: the chip comes back copied
	first := m.topics.open
	send(t, m, press("ctrl+n")) // another topic
	send(t, m, press("enter"))
	if m.topics.open == first || len(f.att.saves) != 3 || !strings.HasPrefix(f.att.saves[2], m.topics.open+"|") {
		t.Fatalf("another topic: saves %q", f.att.saves)
	}
}

// TestDroppedFilesBecomeChips: a paste of quoted paths (a terminal's
// drag-and-drop) becomes chips; keys typed while the app reads it wait
// and follow it; a paste that is not files is text where it was pasted.
func TestDroppedFilesBecomeChips(t *testing.T) {
	t.Parallel()
	f := attachScene()
	m := newTestModel(t, f, testOptions(), 120, 40)
	_, cmd := m.Update(tea.PasteMsg{Content: "'/w/shot 1.png' '/w/report.pdf' "})
	if !m.held.pending {
		t.Fatal("the paste is not being read as a drop")
	}
	typeText(t, m, "ok") // arrives before the answer: held
	if m.input.value() != "" {
		t.Fatalf("keys overtook the drop: %q", m.input.value())
	}
	drive(t, m, cmd)
	if len(m.input.chips) != 2 || m.input.value() != "ok" || m.held.pending || len(m.held.msgs) != 0 {
		t.Fatalf("chips %+v, text %q, held %+v", m.input.chips, m.input.value(), m.held)
	}
	if m.status.text != "Attached shot 1.png, report.pdf." {
		t.Errorf("status %q", m.status.text)
	}
	send(t, m, tea.PasteMsg{Content: " /usr/bin is where it lives"})
	if m.input.value() != "ok /usr/bin is where it lives" || len(m.input.chips) != 2 {
		t.Fatalf("text paste: %q", m.input.value())
	}
	send(t, m, tea.PasteMsg{Content: "plain words"})
	if len(f.att.drops) != 2 {
		t.Errorf("plain text was asked about: %q", f.att.drops)
	}

	// Dropped on the attach prompt: attached, and the prompt closes.
	send(t, m, press("ctrl+x"))
	send(t, m, f4)
	send(t, m, tea.PasteMsg{Content: "'/w/report.pdf'"})
	if m.overlay.open != ovNone || len(m.input.chips) != 2 {
		t.Fatalf("drop on the prompt: overlay %v chips %d", m.overlay.open, len(m.input.chips))
	}
}

// TestDetachChips: Ctrl+X and Backspace in an empty bar take the last
// chip, a click on a chip's ✕ takes that one; Ctrl+C clears text and
// chips.
func TestDetachChips(t *testing.T) {
	t.Parallel()
	f := attachScene()
	m := newTestModel(t, f, testOptions(), 120, 40)
	for _, p := range []string{"/w/shot 1.png", "/w/shot 2.png", "/w/report.pdf"} {
		attach(t, m, p)
	}
	typeText(t, m, "x")
	send(t, m, press("backspace")) // the text first
	send(t, m, press("backspace")) // then the last chip
	if len(m.input.chips) != 2 || m.status.text != "Removed the attachment report.pdf." {
		t.Fatalf("backspace: %d chips, %q", len(m.input.chips), m.status.text)
	}
	hit := m.input.chipHits[0]
	send(t, m, mouseClick(m.layout.Input.X+1+hit.x0, m.layout.Input.Y+1))
	if len(m.input.chips) != 1 || m.input.chips[0].file.Name != "shot 2.png" {
		t.Fatalf("click on the first ✕: %+v", m.input.chips)
	}
	typeText(t, m, "words")
	send(t, m, press("ctrl+c"))
	if len(m.input.chips) != 0 || m.input.value() != "" || m.quitting {
		t.Fatalf("ctrl+c: chips %d text %q quitting %v", len(m.input.chips), m.input.value(), m.quitting)
	}
}

// TestInputHintDropsWhole: the key hint loses whole parts from the end,
// the attach key last in line, to fit.
func TestInputHintDropsWhole(t *testing.T) {
	t.Parallel()
	e := testEnv(LangEnglish)
	km := DefaultKeyMap()
	e.keys = &km
	for w, want := range map[int]string{
		200: "@ address · Enter send · Shift+Enter newline · F4 attach",
		50:  "@ address · Enter send · Shift+Enter newline",
		30:  "@ address · Enter send",
		5:   "",
	} {
		if got := inputHint(e, false, w); got != want {
			t.Errorf("inputHint(%d) = %q, want %q", w, got, want)
		}
	}
	if got := inputHint(e, true, 200); got != "sending…" {
		t.Errorf("sending: %q", got)
	}
}

// TestLooksDropped: only pastes that start like a path are asked about.
func TestLooksDropped(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"/a/b.png": true, " '/a b.png' ": true, `"C:\x\a.png"`: true, `C:\x\a.png`: true, "c:/x": true,
		"file:///a.png": true, "~/a.png": true, `\\server\share\a`: true, "hello": false, "": false,
		"http://x/a.png": false, strings.Repeat("/", maxDropBytes+1): false,
	} {
		if got := looksDropped(s); got != want {
			t.Errorf("looksDropped(%q) = %v", s, got)
		}
	}
}

// TestRefusalText: every refusal reads as a sentence with its figures.
func TestRefusalText(t *testing.T) {
	t.Parallel()
	e := testEnv(LangJapanese)
	got := refusalText(e, &AttachmentError{Path: "/w/big.bin", Reason: AttachmentTooLarge, Size: 2 << 30, Limit: 100 << 20})
	if got != "/w/big.bin は 2.0 GiB あります。添付は 100.0 MiB までです。" {
		t.Errorf("ja: %q", got)
	}
	if got := refusalText(e, errors.New("disk full")); got != "disk full" {
		t.Errorf("plain error: %q", got)
	}
}
