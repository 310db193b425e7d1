package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestRun: the command prints both base URLs, serves the fake on them,
// and writes the record file when its context ends.
func TestRun(t *testing.T) {
	t.Parallel()
	record := filepath.Join(t.TempDir(), "record.jsonl")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, []string{"-addr", "127.0.0.1:0", "-resend", "-record", record}, pw, &stderr)
		pw.Close()
		done <- code
	}()
	urls := map[string]string{}
	sc := bufio.NewScanner(pr)
	for len(urls) < 2 && sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		urls[k] = v
	}
	base := urls["ANTHROPIC_BASE_URL"]
	if !strings.HasPrefix(base, "http://127.0.0.1:") || urls["OPENAI_BASE_URL"] != base+"/v1" {
		t.Fatalf("printed %v", urls)
	}
	body := `{"model":"m","stream":true,"tools":[{"type":"namespace","name":"mcp__k","tools":[{"type":"function","name":"say_to_room"}]}],
 "input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"[pullcept] {\"message_id\":\"m-1\"}\nhi"}]}]}`
	resp, err := http.Post(urls["OPENAI_BASE_URL"]+"/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"namespace":"mcp__k"`) || !strings.Contains(string(b), `reply to: hi`) {
		t.Errorf("answer = %s", b)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d, stderr %s", code, stderr.String())
		}
	case <-time.After(testkit.Wait):
		t.Fatal("run did not return after its context ended")
	}
	rec, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var line struct {
		Request struct {
			Path string `json:"path"`
		} `json:"request"`
		Reply struct {
			Call struct {
				Name string `json:"name"`
			} `json:"call"`
		} `json:"reply"`
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(rec), &line); err != nil {
		t.Fatalf("record %s: %v", rec, err)
	}
	if line.Request.Path != "/v1/responses" || line.Reply.Call.Name != "say_to_room" || len(line.Body) == 0 {
		t.Errorf("record = %s", rec)
	}
	if !strings.Contains(stderr.String(), "fakeapi #1 openai") {
		t.Errorf("stderr log = %q", stderr.String())
	}
}

func TestRunBadFlags(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := run(t.Context(), []string{"-addr", "0.0.0.0:0"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "not loopback") {
		t.Errorf("non-loopback addr: code %d, stderr %q", code, errb.String())
	}
	if code := run(t.Context(), []string{"-nope"}, &out, &errb); code != 2 {
		t.Errorf("unknown flag: code %d", code)
	}
}
