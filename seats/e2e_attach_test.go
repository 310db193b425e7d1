//go:build linux || darwin

package seats_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// claudeRead is Claude Code's file-reading tool (2.1.328): {"file_path": …}.
const claudeRead = "Read"

// attachedPaths are the attachment paths a model reads in the newest
// posts: their bodies' attachment blocks.
func attachedPaths(q *fakeapi.Request) []string {
	var out []string
	for _, p := range q.NewPosts() {
		if a, ok := room.SplitAttachments(p.Body); ok {
			out = append(out, a.Paths...)
		}
	}
	return out
}

// attachmentReader is the fake model of TestE2EClaudeReadsAttachments: a
// room post that names attachments gets one Read call per path, as a
// model given the paths would make (Claude Code runs them in parallel);
// the Reads' results get a closing text.
func attachmentReader(q *fakeapi.Request) fakeapi.Reply {
	if len(q.NewPosts()) > 0 {
		paths := attachedPaths(q)
		if len(paths) == 0 {
			return fakeapi.TextReply("No files.")
		}
		r := fakeapi.CallTool(fakeapi.Tool{Name: claudeRead}, map[string]string{"file_path": paths[0]})
		for _, p := range paths[1:] {
			r.Extra = append(r.Extra, *fakeapi.CallTool(fakeapi.Tool{Name: claudeRead}, map[string]string{"file_path": p}).Call)
		}
		return r
	}
	return fakeapi.TextReply("A red and blue picture, and the notes.")
}

// testPNG is a 3×2 picture: red on the top row, blue below.
func testPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	for x := range 3 {
		img.Set(x, 0, color.RGBA{R: 255, A: 255})
		img.Set(x, 1, color.RGBA{B: 255, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkPicture fails t unless img is the 3×2 red-over-blue PNG of testPNG
// (Claude Code may re-encode a picture; the pixels must survive).
func checkPicture(t *testing.T, where string, img fakeapi.Image) {
	t.Helper()
	got, err := png.Decode(bytes.NewReader(img.Data))
	if img.MediaType != "image/png" || err != nil {
		t.Errorf("%s: image block %s of %d bytes: %v", where, img.MediaType, len(img.Data), err)
		return
	}
	top := color.RGBAModel.Convert(got.At(1, 0)).(color.RGBA)
	bottom := color.RGBAModel.Convert(got.At(1, 1)).(color.RGBA)
	if b := got.Bounds(); b.Dx() != 3 || b.Dy() != 2 || top.R != 255 || top.B != 0 || bottom.B != 255 || bottom.R != 0 {
		t.Errorf("%s: a %v picture, %v over %v; want 3×2 red over blue", where, got.Bounds(), top, bottom)
	}
}

// TestE2EClaudeReadsAttachments: the admin sends a picture and a text file
// (saved under the topic's attachments folder, their paths in the body's
// block, as the input bar sends them: docs/design.md §8 "Attachments").
// The log, a second seat's terminal and the real Claude Code's model
// request get the body exactly as delivered — the paths as text, no
// picture pasted in (a bare image path line would be: docs/clis.md
// §2.16). Asked by the model to Read both paths, outside the seat's
// working directory, Claude Code answers with the picture as an image
// block and with the notes' text: the path is enough.
func TestE2EClaudeReadsAttachments(t *testing.T) {
	r := newRig(t, attachmentReader)
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	ada := r.claudeAccount("ada", "Ada")
	linesFile := filepath.Join(r.root, "echo-lines.jsonl")
	echo := r.fakeCLIAccount("echo", "Echo", "-join -lines "+config.QuoteWord(linesFile))
	res, s := r.start(ada.ID)
	_, echoSeat := r.start(echo.ID)
	r.waitReady(echo.ID, echoSeat)
	r.waitReady(ada.ID, s)

	pic := testPNG(t)
	picPath, err := r.store.SaveAttachment(e2eTopic, "picture @Ada.png", bytes.NewReader(pic))
	if err != nil {
		t.Fatal(err)
	}
	notesPath, err := r.store.SaveAttachment(e2eTopic, "notes.txt", strings.NewReader("hello notes"))
	if err != nil {
		t.Fatal(err)
	}
	body := room.AttachmentBlock{Text: "what is in these? @Ada", Label: room.AttachmentsLabel, Paths: []string{picPath, notesPath}}.String()
	post := r.post(body)
	want := "what is in these?\n\nAttachments:\n- " + picPath + "\n- " + notesPath
	if post.Content != want || filepath.Base(picPath) != "picture _Ada.png" {
		t.Fatalf("delivered body %q, want %q", post.Content, want)
	}
	if rec := r.logged(post.MessageID); rec.Content != want {
		t.Errorf("logged body %q, want %q", rec.Content, want)
	}
	fakeLines(t, linesFile, echoSeat.Done(), typedTag(post, "Echo"), "what is in these?", "", "Attachments:", "- "+picPath, "- "+notesPath)

	var first, read *fakeapi.Request
	e2eUntil(t, "the Reads' results at the model", func() bool {
		for _, ex := range r.sessionCalls(res.SessionID) {
			if first == nil && len(carrying(ex.Request, post.MessageID)) > 0 {
				first = ex.Request
			}
			if slices.ContainsFunc(ex.Request.NewResults(), func(rs fakeapi.ToolResult) bool {
				return rs.Call != nil && rs.Call.Name == claudeRead
			}) {
				read = ex.Request
				return true
			}
		}
		return false
	}, s.Done())
	if first == nil {
		t.Fatal("no model call carried the post")
	}
	checkTypedAsText(t, first, post)
	checkReads(t, read, picPath, notesPath, pic)
}

// checkTypedAsText: the request that first carries the post holds it as
// typed — the tag line, then the body with the block's "- <path>" lines
// (inside Claude's pasted-content wrapper when the text is long,
// docs/clis.md §2.8) — and no picture: the model has only the paths until
// it reads them.
func checkTypedAsText(t *testing.T, req *fakeapi.Request, post room.Post) {
	t.Helper()
	var bodies []string
	for _, p := range req.NewPosts() {
		if p.Tag.MessageID == post.MessageID {
			bodies = append(bodies, p.Body)
			if p.TagLine != typedTag(post, "Ada") {
				t.Errorf("request #%d: tag line %q, want %q", req.Seq, p.TagLine, typedTag(post, "Ada"))
			}
		}
	}
	images := 0
	for _, m := range req.NewInput() {
		images += len(m.Images)
	}
	if !slices.Equal(bodies, []string{post.Content}) || images != 0 {
		raw, _ := json.Marshal(req.NewInput())
		t.Fatalf("request #%d: bodies %q, %d images; want the body as delivered and no picture (%s)", req.Seq, bodies, images, raw)
	}
}

// checkReads: the Read of the picture's path answered with the picture, the
// Read of the text file's with its text.
func checkReads(t *testing.T, req *fakeapi.Request, picPath, notesPath string, pic []byte) {
	t.Helper()
	got := map[string]fakeapi.ToolResult{}
	for _, rs := range req.NewResults() {
		if rs.Call == nil || rs.Call.Name != claudeRead {
			continue
		}
		var in struct {
			FilePath string `json:"file_path"`
		}
		if err := json.Unmarshal(rs.Call.Input, &in); err != nil {
			t.Fatal(err)
		}
		if rs.IsError {
			t.Errorf("Read of %s failed: %s", in.FilePath, rs.Text)
		}
		got[in.FilePath] = rs
	}
	if rs, ok := got[picPath]; !ok || len(rs.Images) != 1 {
		t.Errorf("request #%d: the Read of the picture: %+v", req.Seq, rs)
	} else {
		img := rs.Images[0]
		checkPicture(t, "the Read's picture", img)
		t.Logf("read: %s, %d bytes (the saved file %d; same bytes: %v)", img.MediaType, len(img.Data), len(pic), bytes.Equal(img.Data, pic))
	}
	if rs := got[notesPath]; !strings.Contains(rs.Text, "hello notes") {
		t.Errorf("request #%d: the Read of the notes: %q", req.Seq, rs.Text)
	}
}

// TestE2EClaudeDefaultModeReadsAttachments: in Claude Code's default
// permission mode a Read outside the working directory asks the human
// first (measured with the attachments e2e: the seat stopped on the
// dialog). The launch names the topic's attachments folder as one the
// seat reads without asking (permissions.additionalDirectories), so the
// Read's result reaches the model and nobody answers anything.
func TestE2EClaudeDefaultModeReadsAttachments(t *testing.T) {
	r := newRig(t, attachmentReader)
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	ada := r.addAccount(config.Account{ID: "ada", Name: "Ada", Kind: config.KindClaudeCode, WorkDir: r.workDir("ada"),
		Command: fakeapi.CLIPath(t, fakeapi.CLIClaude)}) // no --dangerously-skip-permissions
	res, s := r.start(ada.ID)
	r.waitReady(ada.ID, s)
	notesPath, err := r.store.SaveAttachment(e2eTopic, "notes.txt", strings.NewReader("hello notes"))
	if err != nil {
		t.Fatal(err)
	}
	if rel, err := filepath.Rel(ada.WorkDir, notesPath); err == nil && !strings.HasPrefix(rel, "..") {
		t.Fatalf("the attachment %s is inside the working directory %s: the test would prove nothing", notesPath, ada.WorkDir)
	}
	post := r.post(room.AttachmentBlock{Text: "read this @Ada", Label: room.AttachmentsLabel, Paths: []string{notesPath}}.String())
	var read fakeapi.ToolResult
	e2eUntil(t, "the Read's result at the model", func() bool {
		for _, ex := range r.sessionCalls(res.SessionID) {
			for _, rs := range ex.Request.NewResults() {
				if rs.Call != nil && rs.Call.Name == claudeRead {
					read = rs
					return true
				}
			}
		}
		return false
	}, s.Done())
	if read.IsError || !strings.Contains(read.Text, "hello notes") {
		t.Fatalf("post %s: the Read of %s in default mode: error %v, %q", post.MessageID, notesPath, read.IsError, read.Text)
	}
}
