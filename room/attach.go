package room

import (
	"strings"

	"github.com/pullcept/pullcept/logstore"
)

// Attachments ride in a post's body as the absolute paths of the files the
// app saved for it (docs/design.md §8 "Attachments", spec «添付は保存した
// ファイルのパスで届く»): after the text, one blank line, a label line, then
// one path a line, each after "- ". The tag line, say_to_room and the
// sidecar are unchanged; the block is body text, so the chat, the log and
// every terminal get the same characters. A post of attachments only is
// the block alone.
//
//	please look at these
//
//	Attachments:
//	- /home/me/.config/pullcept/logs/main/attachments/<topic>/image.png
//	- /home/me/.config/pullcept/logs/main/attachments/<topic>/report.pdf
//
// Why "- ": Claude Code 2.1.328 takes a pasted line that is only an image
// path out of the text and sends the picture instead, after reading it
// asynchronously — and an Enter that arrives while it reads is dropped, so
// the post sat unsubmitted in its input box in 4 of 12 runs on a loaded
// machine, with "[Image #1]" in front of the tag when it did go
// (docs/clis.md §2.16). A line "- <path>" is text to it; the model reads
// the path and opens the file with its Read tool when it needs it.

// Attachment block labels: the UI writes the one of its language and
// reads either (a topic may hold posts written in both).
const (
	AttachmentsLabel   = logstore.AttachmentsLabel
	AttachmentsLabelJa = logstore.AttachmentsLabelJa
)

// MaxAttachments is the most files one post carries (the input bar's
// limit) and the most paths a block may list to be read as one: a longer
// list is text. Sixteen files are more than a person attaches to one
// message; the cap keeps a hostile seat's block from becoming thousands of
// chips.
const MaxAttachments = 16

// AttachmentBlock is a body split into its text and its attachment block.
type AttachmentBlock struct {
	Text  string   // the text before the block ("" for attachments only)
	Label string   // the block's label line, as written
	Paths []string // the paths, in the order of the input bar's chips
}

// attachmentItem starts each path line of the block.
const attachmentItem = "- "

// String writes the body: Text (its trailing blank lines dropped), a blank
// line, Label and the paths one a line after "- "; with no Text the block
// alone; with no paths, Text unchanged.
func (a AttachmentBlock) String() string {
	if len(a.Paths) == 0 {
		return a.Text
	}
	block := a.Label + "\n" + attachmentItem + strings.Join(a.Paths, "\n"+attachmentItem)
	text := strings.TrimRight(a.Text, " \t\r\n")
	if strings.TrimSpace(text) == "" {
		return block
	}
	return text + "\n\n" + block
}

// SplitAttachments reads the attachment block at the end of content: a
// line that is exactly a label, first in content or after a blank line,
// followed by 1 to MaxAttachments lines "- <path>" up to the end (trailing
// newlines allowed). ok is false when content ends in no such block; the
// paths are not checked here (the UI checks where they point, the app
// checks again before opening anything).
func SplitAttachments(content string) (AttachmentBlock, bool) {
	lines := strings.Split(strings.TrimRight(content, "\n"), "\n")
	for i := len(lines) - 1; i >= 0 && len(lines)-1-i <= MaxAttachments; i-- {
		l := lines[i]
		if l != AttachmentsLabel && l != AttachmentsLabelJa {
			if p, ok := strings.CutPrefix(l, attachmentItem); !ok || strings.TrimSpace(p) == "" {
				return AttachmentBlock{}, false
			}
			continue
		}
		items := lines[i+1:]
		if len(items) == 0 || i > 0 && strings.TrimSpace(lines[i-1]) != "" {
			return AttachmentBlock{}, false
		}
		text := ""
		if i > 0 {
			text = strings.Join(lines[:i-1], "\n")
		}
		paths := make([]string, len(items))
		for j, it := range items {
			paths[j] = strings.TrimPrefix(it, attachmentItem)
		}
		return AttachmentBlock{Text: text, Label: l, Paths: paths}, true
	}
	return AttachmentBlock{}, false
}

// takeMentions is TakeMentions for a post body: an attachment block at its
// end is left as written, so a data directory like /home/@Ada/… cannot
// lose part of a path to a mention (docs/design.md §3, §8 "Attachments").
// A body of mentions and attachments is the block alone.
func takeMentions(content string, roster []string) (string, []string) {
	a, ok := SplitAttachments(content)
	if !ok {
		return TakeMentions(content, roster)
	}
	text, mentions := TakeMentions(a.Text, roster)
	if mentions == nil {
		return content, nil
	}
	a.Text = text
	return a.String(), mentions
}
