package room

import (
	"fmt"
	"strings"

	"github.com/pullcept/pullcept/logstore"
)

// A long post's body file (docs/design.md §8 "Long posts") is written
// before deliver takes the room lock, never under it (docs/design.md §2:
// nothing slow under the lock; the file is up to 1 MiB, and its close may
// flush to a network file system). The post names the file only once it
// exists, and only if the file holds exactly the text the room stamped
// under the lock; a file no delivered post names is removed after the
// lock.

// maxLongWrites bounds the writes of one long post's file. A second write
// is needed only when the roster changed which of the post's @mentions
// match while the first was written (a hello: 5 at once, then 1 a second
// per seat token); after maxLongWrites the post goes without a file, told
// like a failed write, and the log line keeps the text.
const maxLongWrites = 4

// longBody is one write of a long post's body file.
type longBody struct {
	text       string // what the file holds
	name, path string // from Log.SaveBody; "" when the write failed
	err        error  // a failed write, told like a failed log append
	used       bool   // a delivered post names the file (set under the room lock)
}

// writeLong writes the body file of d when d is long (nil otherwise, or
// without a log), with the text the room is expected to stamp. A draft
// without a message id gets its id here: the file is named by it.
func (h *Hub) writeLong(r *roomState, s sender, d *Draft) *longBody {
	if h.log == nil || len(d.Content) <= logstore.BodyInline {
		return nil // mentions only shorten a body: this post cannot be long
	}
	if d.MessageID == "" {
		d.MessageID = h.newID()
	}
	return h.saveLong(r.topic, d.MessageID, h.expectedBody(r, s, d.Content))
}

// expectedBody is the body stampLocked will make of content from s: a
// seat's post (the UI's or a socket's) loses its @mentions of the roster
// as it is now. Only the names are read under the room lock.
func (h *Hub) expectedBody(r *roomState, s sender, content string) string {
	if (s.kind != sendUI && s.kind != sendSocket) || !strings.ContainsAny(content, "@＠") {
		return content
	}
	r.mu.Lock()
	names := r.names()
	r.mu.Unlock()
	body, _ := takeMentions(content, names)
	return body
}

// rewriteLong writes text, the body stamped under the lock, after the
// roster changed it during write number tries.
func (h *Hub) rewriteLong(topic, id, text string, tries int) *longBody {
	if tries >= maxLongWrites {
		err := fmt.Errorf("long post %s in topic %q: the roster changed its mentions during %d writes of its body file; the log keeps the text", id, topic, tries)
		h.logger.Warn("room: long post delivered without its file", "topic", topic, "err", err)
		return &longBody{err: err}
	}
	return h.saveLong(topic, id, text)
}

// saveLong writes text as the body file of post id (nil when text is not
// long). A failed write is kept to be told; it delays nothing.
func (h *Hub) saveLong(topic, id, text string) *longBody {
	if len(text) <= logstore.BodyInline {
		return nil
	}
	name, path, err := h.log.SaveBody(topic, id, text)
	if err != nil {
		err = fmt.Errorf("save the whole text of long post %s in topic %q: %w", id, topic, err)
		h.logger.Warn("room: long post file not written; the log keeps the text", "topic", topic, "err", err)
	}
	return &longBody{text: text, name: name, path: path, err: err}
}

// holds reports whether a post stamped with content may be committed with
// w: a short post needs no file; a long one needs the file of exactly its
// text, or a write that failed (told; the log line keeps the text).
func (w *longBody) holds(content string) bool {
	if len(content) <= logstore.BodyInline {
		return true
	}
	return w != nil && (w.err != nil || w.text == content)
}

// keepLong makes a long post's in-memory form: the post the floor, the
// seats, the chat and the sender get carries the first
// logstore.BodyInline bytes, its Size and w's path (holds checked w). It
// returns p unchanged for other posts, and the file's name for the log
// line. Holds r.mu; no I/O.
func keepLong(p Post, w *longBody) (Post, string, error) {
	clipped, cut := logstore.ClipBody(p.Content)
	if !cut {
		return p, "", nil
	}
	p.Size, p.Content, p.BodyFile = len(p.Content), strings.Clone(clipped), w.path
	w.used = w.err == nil
	return p, w.name, w.err
}

// dropUnused removes a body file that no delivered post names: its post
// was refused, rejected by the floor, a retry of one already delivered,
// short after all, or stamped with other text. Called after the lock.
func (h *Hub) dropUnused(topic string, w *longBody) {
	if w == nil || w.used || w.name == "" {
		return
	}
	if err := h.log.DropBody(topic, w.name); err != nil {
		h.logger.Warn("room: unused long post file not removed", "topic", topic, "file", w.path, "err", err)
	}
}
