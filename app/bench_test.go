package app

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/tui"
)

// BenchmarkHookToPanelEvent: a Claude Code seat's hook POST, through the
// real loopback server, hub and seat manager, to the SeatUpdated event the
// UI's NextEvents returns (docs/design.md §11; target p99 ≤ 1 ms). The seat
// runs a script that ignores Claude's flags, so no CLI is needed. Reports
// p50 and p99 of the whole trip.
func BenchmarkHookToPanelEvent(b *testing.B) {
	dir, work := b.TempDir(), b.TempDir()
	script := filepath.Join(work, "fake-claude")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec sleep 100000\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := fmt.Sprintf(`{"accounts":[{"id":"admin","name":"Alice","kind":"admin"},
		{"id":"cc","name":"Claude","kind":"claude_code","cwd":%q,"command":%q}]}`, work, script)
	if err := os.WriteFile(filepath.Join(dir, config.FileName), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	a, err := Open(dir, "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	be := NewBackend(a)
	defer be.Close()
	topic, _ := be.NewTopic()
	if _, err := be.StartSeat(topic, "cc", 80, 24); err != nil {
		b.Fatal(err)
	}
	client := &http.Client{}
	post := func(event, tool string) {
		body := fmt.Sprintf(`{"hook_event_name":%q,"tool_name":%q}`, event, tool)
		req, _ := http.NewRequest(http.MethodPost, room.HookActivityURL(a.server.HooksURL(), event, topic, "cc"), bytes.NewReader([]byte(body)))
		req.Header.Set("Authorization", "Bearer "+a.server.Token())
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("hook %s: %v %v", event, resp, err)
		}
		resp.Body.Close()
	}
	updated := func() {
		for {
			evs, ok := be.NextEvents(64)
			if !ok {
				b.Fatal("events closed")
			}
			if slices.ContainsFunc(evs, func(e tui.Event) bool { u, is := e.(tui.SeatUpdated); return is && u.Account == "cc" }) {
				return
			}
		}
	}
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		event := "PreToolUse"
		if i%2 == 1 {
			event = "PostToolUse"
		}
		start := time.Now()
		post(event, "Bash")
		updated()
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}
