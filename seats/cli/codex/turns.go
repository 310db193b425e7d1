package codex

import (
	"encoding/json"
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

// Composer reads Codex's input box (cli.Confirmer): the block that holds
// the cursor, from its "›" row down to the blank row above the footer.
// History messages are drawn alike in plain text (measured with 0.169.0),
// so only the cursor tells the box; a box showing a placeholder for a long
// paste ("[Pasted Content …]") never equals a post.
func (*Adapter) Composer(rows []string, cy int) (string, bool) {
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
	lines := []string{strings.TrimLeft(strings.TrimPrefix(rows[top], "›"), " \u00a0")}
	for _, r := range rows[top+1 : end] {
		lines = append(lines, strings.TrimLeft(r, " "))
	}
	return strings.Join(lines, "\n"), true
}
