package fakeapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"testing"
)

// TestAnthropicImages: image blocks are recorded with their decoded bytes,
// in a user message (Claude Code's pasted image path) and in a tool result
// (its Read of an image); a source that is not base64 is a bad body.
func TestAnthropicImages(t *testing.T) {
	t.Parallel()
	pic := []byte("\x89PNG fake bytes")
	img := map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png",
		"data": base64.StdEncoding.EncodeToString(pic)}}
	body := map[string]any{"model": "m", "stream": true, "messages": []any{
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "[Image #1] hi"}, img}},
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t1", "name": "Read",
			"input": map[string]any{"file_path": "/a.png"}}}},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t1",
			"content": []any{img}}}},
	}}
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req := &Request{Body: raw}
	if err := parseAnthropic(req); err != nil {
		t.Fatal(err)
	}
	user := req.Messages[0].Images
	if len(user) != 1 || user[0].MediaType != "image/png" || !bytes.Equal(user[0].Data, pic) {
		t.Errorf("user message images %+v", user)
	}
	res := req.NewResults()
	if len(res) != 1 || res[0].Call == nil || res[0].Call.Name != "Read" || len(res[0].Images) != 1 || !bytes.Equal(res[0].Images[0].Data, pic) {
		t.Errorf("tool result %+v", res)
	}

	bad := bytes.Replace(raw, []byte(`"type":"base64"`), []byte(`"type":"url"`), 1)
	if err := parseAnthropic(&Request{Body: bad}); err == nil {
		t.Error("an image source of type url parsed")
	}
}
