package localmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pullcept/pullcept/room/blank"
)

// ProcessedLine starts the line every notice carries once (spec #410): it
// hands the event id to the session that made the change, which marks the
// event processed itself. Pullcept never calls mark_processed (#180).
const ProcessedLine = "If this is your own operation, mark it processed now: event_id="

// signaturePrefix is how a signature line starts (spec #270): an em dash
// (U+2014) and exactly one space, then the name.
const signaturePrefix = "\u2014 "

// maxSignerRunes bounds the name a signature line may carry: a room name
// is at most 64 characters (docs/design.md §6); a longer last line is a
// sentence, not a signature.
const maxSignerRunes = 64

// Notice is one notice for Options.OnNotice. Text is the server's summary
// with the processed line, as the server wrote it: a first line "Signed: …"
// in it is the server's own text. Signer is the name Pullcept read from the
// last line of the event's own body through get_event (spec #269, #270),
// "" when none was read; it travels apart from Text so that no summary can
// forge it (issue 32; the room carries it in the tag, docs/design.md §6).
type Notice struct {
	Text   string
	Signer string
}

// bodyKeys maps the event types whose payload may carry a body written by
// the operation itself to the payload key holding that body (spec #269).
var bodyKeys = map[string]string{
	"issue_comment":               "comment",
	"pull_request_review_comment": "comment",
	"discussion_comment":          "comment",
	"issues":                      "issue",
	"pull_request":                "pull_request",
	"pull_request_review":         "review",
}

// freshActions are the actions whose body was written just now; edited is
// not one (the editor need not be the signer), nor closed or labeled (the
// body is older than the operation).
var freshActions = map[string]bool{"created": true, "opened": true, "submitted": true}

// wantsSignature reads the bridge's summary (its first line "[type] repo",
// its second "action: <action>" when the event has one) and reports the
// payload key whose body may hold a signature, or ok false when the notice
// goes out without asking for the event.
func wantsSignature(summary string) (key string, ok bool) {
	lines := strings.Split(summary, "\n")
	first := strings.TrimSuffix(lines[0], "\r")
	if !strings.HasPrefix(first, "[") {
		return "", false
	}
	end := strings.IndexByte(first, ']')
	if end < 0 {
		return "", false
	}
	key, ok = bodyKeys[first[1:end]]
	if !ok || len(lines) < 2 {
		return "", false
	}
	action, found := strings.CutPrefix(strings.TrimSuffix(lines[1], "\r"), "action: ")
	if !found || !freshActions[action] {
		return "", false
	}
	return key, true
}

// signature reads a body's last line (trailing line breaks ignored) and
// returns the name it signs, or "" when that line is not exactly
// "— <name>" (U+2014, one space, a name that neither starts nor ends with
// white space and holds no control character nor one that draws nothing —
// bidi and other format characters, tag characters, variation selectors,
// fillers: the tag would carry text no one sees into every seat, and the
// room refuses such a signer).
func signature(body string) string {
	body = strings.TrimRight(body, "\r\n")
	last := body
	if i := strings.LastIndexByte(body, '\n'); i >= 0 {
		last = body[i+1:]
	}
	last = strings.TrimSuffix(last, "\r")
	name, ok := strings.CutPrefix(last, signaturePrefix)
	if !ok || name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxSignerRunes {
		return ""
	}
	first, _ := utf8.DecodeRuneInString(name)
	lastRune, _ := utf8.DecodeLastRuneInString(name)
	if unicode.IsSpace(first) || unicode.IsSpace(lastRune) {
		return ""
	}
	for _, r := range name {
		if unicode.IsControl(r) || blank.Hidden(r) {
			return ""
		}
	}
	return name
}

// signerFromEvent reads get_event's answer text (the bridge's JSON of the
// stored event: {id, type, received_at, processed, payload: {...}}; a bare
// payload is read too) and returns the signature of payload[key].body.
func signerFromEvent(text, key string) (string, error) {
	var event struct {
		Payload map[string]json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal([]byte(text), &event); err != nil {
		return "", fmt.Errorf("get_event answer is not an event: %w", err)
	}
	payload := event.Payload
	if payload == nil {
		if err := json.Unmarshal([]byte(text), &payload); err != nil {
			return "", fmt.Errorf("get_event answer is not an event: %w", err)
		}
	}
	var holder struct {
		Body *string `json:"body"`
	}
	raw, ok := payload[key]
	if !ok {
		return "", fmt.Errorf("the event has no %s", key)
	}
	if err := json.Unmarshal(raw, &holder); err != nil || holder.Body == nil {
		return "", fmt.Errorf("the event's %s has no body", key)
	}
	return signature(*holder.Body), nil
}

// isURLLine reports a line that is a bare http(s) URL (spec #410: the
// summary's last line when the event has one).
func isURLLine(line string) bool {
	rest, ok := strings.CutPrefix(line, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(line, "http://")
	}
	return ok && rest != "" && !strings.ContainsFunc(line, unicode.IsSpace)
}

// compose builds the notice's text: the summary with the processed line
// placed once, right before a last line that is a URL or else at the end.
// The signature is not in it (Notice.Signer).
func compose(summary, eventID string) string {
	summary = strings.TrimRight(summary, "\r\n")
	processed := ProcessedLine + eventID
	var lines []string
	if summary != "" {
		lines = strings.Split(summary, "\n")
	}
	if n := len(lines); n > 0 && isURLLine(strings.TrimSuffix(lines[n-1], "\r")) {
		url := lines[n-1]
		lines = append(lines[:n-1], processed, url)
	} else {
		lines = append(lines, processed)
	}
	return strings.Join(lines, "\n")
}

// push is one channel notification with an event id, as it arrived.
type push struct {
	id      string
	content string
}

// eventReader asks the bridge for one event (get_event) and returns the
// text of its answer. It must return when ctx ends.
type eventReader func(ctx context.Context, eventID string) (string, error)

// notices turns one server's pushes into notices, one at a time in
// arrival order: a push waiting for its signature (at most wait) holds
// the ones behind it (spec #269 "通知の順番は届いた順のまま保つ").
type notices struct {
	server string
	wait   time.Duration
	read   eventReader
	emit   func(server string, n Notice)
	note   func(text string) // a line in the server's log
	before func()            // called before each push (nil: nothing)
	fold   *folding          // the brake's folds (nil: none; brake.go)
}

// one handles a single push.
func (n *notices) one(ctx context.Context, p push) {
	signer := ""
	if key, ok := wantsSignature(p.content); ok && ctx.Err() == nil {
		var err error
		signer, err = n.signer(ctx, p.id, key)
		if err != nil {
			n.note(fmt.Sprintf("event %s: no signature read: %v", p.id, err))
		}
	}
	if n.emit != nil {
		n.emit(n.server, Notice{Text: compose(p.content, p.id), Signer: signer})
	}
}

// signer reads the event within n.wait and returns its body's signature.
func (n *notices) signer(ctx context.Context, id, key string) (string, error) {
	wctx, cancel := context.WithTimeout(ctx, n.wait)
	defer cancel()
	text, err := n.read(wctx, id)
	if err != nil {
		if errors.Is(wctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			return "", fmt.Errorf("get_event gave no answer within %v", n.wait)
		}
		return "", err
	}
	return signerFromEvent(text, key)
}
