package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// The user messages a Codex seat took (docs/design.md §5 "Confirmed
// delivery"). Measured with 0.169.0: a post typed into an idle seat's TUI
// is confirmed 29–38 ms after its "\r" by the server's item/started note of
// a userMessage item whose content holds the typed text, tag line first
// (9 of 9); the rollout writes the same text as a user message
// response_item. A post typed while a turn runs is a steer: no note until
// the turn's next model call, and then it joins that turn — so the seat
// types only between turns.

// noteUserMessage is the part of an item/started note read for a user
// message: its thread and its text blocks.
type noteUserMessage struct {
	ThreadID string `json:"threadId"`
	Item     *struct {
		Type    string `json:"type"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"item"`
}

// userMessageNote returns the text of a userMessage item/started note of
// thread; false for any other note.
func userMessageNote(n codexNote, thread string) (string, bool) {
	if n.ID != "" || n.Method != noteItemStarted || len(n.Params) == 0 {
		return "", false
	}
	var b noteUserMessage
	if json.Unmarshal(n.Params, &b) != nil || b.ThreadID != thread || b.Item == nil || b.Item.Type != "userMessage" {
		return "", false
	}
	var texts []string
	for _, c := range b.Item.Content {
		if c.Type == "text" {
			texts = append(texts, c.Text)
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

// rolloutUserText returns the text of a rollout line that is a user
// message (response_item, role user); false for any other line.
func rolloutUserText(line []byte) (string, bool) {
	if !strings.Contains(string(line[:min(len(line), 256)]), `"response_item"`) {
		return "", false
	}
	var l struct {
		Type    string `json:"type"`
		Payload struct {
			Type    string `json:"type"`
			Role    string `json:"role"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "response_item" || l.Payload.Type != "message" || l.Payload.Role != "user" {
		return "", false
	}
	var texts []string
	for _, c := range l.Payload.Content {
		if c.Type == "input_text" {
			texts = append(texts, c.Text)
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

// longEvent finds a rollout line's kind in its head.
var longEvent = regexp.MustCompile(`^\{"timestamp":("[^"]*"),(?:"ordinal":\d+,)?"type":"(event_msg|response_item)","payload":\{"type":"([a-z_]+)"(?:,"id":"[^"]*")?(?:,"role":"([a-z]+)")?`)

// longLine makes a line applyCodexLine and rolloutUserText can read from
// the head of a rollout line too long to keep (cli.Tail.Long): an event's
// kind (a task_complete carrying a long last answer: without it the seat
// stays in its turn and its posts wait for ever) and a user message's
// first text, cut (its tag line confirms the post). Everything else of
// such a line is lost, as before.
func longLine(head []byte) ([]byte, bool) {
	m := longEvent.FindSubmatch(head)
	if m == nil {
		return nil, false
	}
	ts, typ, kind, role := m[1], string(m[2]), string(m[3]), string(m[4])
	if typ == "event_msg" {
		return fmt.Appendf(nil, `{"timestamp":%s,"type":"event_msg","payload":{"type":%q}}`, ts, kind), true
	}
	if kind != "message" || role != "user" {
		return nil, false
	}
	const key = `"type":"input_text","text":"`
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return nil, false
	}
	text := jsonStringPrefix(head[i+len(key):])
	b, err := json.Marshal(text)
	if err != nil {
		return nil, false
	}
	return fmt.Appendf(nil, `{"timestamp":%s,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":%s}]}}`, ts, b), true
}

// jsonStringPrefix decodes the start of a JSON string's body (after its
// opening quote) as far as it goes: to its closing quote, or to the end of
// b without a dangling escape.
func jsonStringPrefix(b []byte) string {
	end := len(b)
	if q := closingQuote(b); q >= 0 {
		end = q
	}
	for cut := end; cut >= 0 && cut >= end-6; cut-- {
		var s string
		if json.Unmarshal(append(append([]byte{'"'}, b[:cut]...), '"'), &s) == nil {
			return s
		}
	}
	return ""
}

// closingQuote is the index of the first unescaped quote in b (-1: none).
func closingQuote(b []byte) int {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// markWidth is the cells of the composer's "› " before its text.
const markWidth = 2

// Composer reads Codex's input box (cli.Confirmer): the block that holds
// the cursor, from its "›" row down to the blank row above the footer.
// History messages are drawn alike in plain text (measured with 0.169.0),
// so only the cursor tells the box; a box showing a placeholder for a long
// paste ("[Pasted Content …]") never equals a post. An empty box shows a
// dim placeholder ("Ask Codex to do anything") with the cursor before it,
// right after the mark: read as empty (breaker review).
func (*Adapter) Composer(rows []string, cx, cy int) (string, bool) {
	if cy < 0 || cy >= len(rows) {
		return "", false
	}
	top := cy
	for top >= 0 && !strings.HasPrefix(rows[top], "›") {
		if strings.TrimSpace(rows[top]) == "" {
			return "", false
		}
		top--
	}
	if top < 0 {
		return "", false
	}
	end := cy + 1
	for end < len(rows) && strings.TrimSpace(rows[end]) != "" {
		end++
	}
	if end >= len(rows) {
		return "", false // no blank row, no footer under it: not the box
	}
	if top == cy && end == cy+1 && cx == markWidth {
		return "", true // the cursor before a one-row text: the placeholder
	}
	lines := []string{strings.TrimLeft(strings.TrimPrefix(rows[top], "›"), " \u00a0")}
	for _, r := range rows[top+1 : end] {
		lines = append(lines, strings.TrimLeft(r, " "))
	}
	return strings.Join(lines, "\n"), true
}
