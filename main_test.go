package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/tui"
)

func TestVersionAndHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--version"}, nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "pullcept ") {
		t.Fatalf("--version: code %d out %q err %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"--help"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "pullcept sidecar") {
		t.Fatalf("--help: code %d out %q", code, out.String())
	}
	errb.Reset()
	if code := run([]string{"bogus"}, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "unknown command") {
		t.Fatalf("bogus: code %d err %q", code, errb.String())
	}
}

func TestStatusLineForwardsWithToken(t *testing.T) {
	got := make(chan []byte, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-1" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		got <- b
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	in := `{"model":{"display_name":"Opus 5.5"},"context_window":{"used_percentage":12.4}}`
	var out, errb bytes.Buffer
	env := func(k string) string {
		if k == "PULLCEPT_ROOM_TOKEN" {
			return "tok-1"
		}
		return ""
	}
	code := runStatusLine([]string{srv.URL + "/hooks/status/t/a"}, env, strings.NewReader(in), &out, &errb)
	if code != 0 {
		t.Fatalf("code %d err %q", code, errb.String())
	}
	select {
	case b := <-got:
		if string(b) != in {
			t.Fatalf("forwarded %q", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("status never reached the room")
	}
	if line := out.String(); line != "pullcept · Opus 5.5 · ctx 12%\n" {
		t.Fatalf("line %q", line)
	}
	// Not loopback: refused before anything is sent.
	if code := runStatusLine([]string{"http://example.com/x"}, env, strings.NewReader(in), &out, &errb); code != 2 {
		t.Fatalf("non-loopback url: code %d", code)
	}
	// Room down: the line says so, exit 0 (never break Claude's footer).
	srv.Close()
	out.Reset()
	if code := runStatusLine([]string{srv.URL + "/hooks/status/t/a"}, env, strings.NewReader(in), &out, &errb); code != 0 || !strings.Contains(out.String(), "room unreachable") {
		t.Fatalf("room down: code %d out %q", code, out.String())
	}
}

// TestAppPostsThroughTheOnePath wires the real parts as runApp does and posts
// as the admin through the UI backend: the post reaches the subscription,
// the topic log and the index (named from the first post).
func TestAppPostsThroughTheOnePath(t *testing.T) {
	dir := t.TempDir()
	cfg := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"}],"keys":{"new_topic":["ctrl+n"]}}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := openApp(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	b := newBackend(a)
	defer b.close()

	topic, _ := b.NewTopic()
	if err := b.OpenRoom(topic); err != nil {
		t.Fatal(err)
	}
	res, err := b.Post(topic, room.Draft{Content: "first words here"})
	if err != nil || !res.Delivered {
		t.Fatalf("post: %+v %v", res, err)
	}
	deadline := time.After(5 * time.Second)
	for {
		select {
		case ev := <-b.RoomEvents():
			if pd, ok := ev.(room.PostDelivered); ok && pd.Post.MessageID == res.Post.MessageID {
				if pd.Post.Role != room.RoleAdmin || pd.Post.Speaker != "Alice" {
					t.Fatalf("post = %+v", pd.Post)
				}
				goto delivered
			}
		case <-deadline:
			t.Fatal("no PostDelivered")
		}
	}
delivered:
	data, err := os.ReadFile(filepath.Join(dir, "logs", "main", topic+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(data), &rec); err != nil || rec["speaker"] != "Alice" || rec["content"] != "first words here" {
		t.Fatalf("log line %q (%v)", data, err)
	}
	var topics []tui.TopicInfo
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if topics, err = b.Topics(); err == nil && len(topics) == 1 && topics[0].Name != "" {
			break
		}
	}
	if len(topics) != 1 || topics[0].Name != "first words here" || !topics[0].Indexed {
		t.Fatalf("topics = %+v", topics)
	}
	// The admin cannot be deleted; an unknown account cannot either.
	if err := b.DeleteAccount("admin"); err == nil {
		t.Fatal("deleting the admin account succeeded")
	}
	ui, err := a.cfg.UI()
	if err != nil || len(ui.Keys["new_topic"]) != 1 {
		t.Fatalf("ui settings %+v %v", ui, err)
	}
}
