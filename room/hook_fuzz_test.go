package room

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzHookRequest sends arbitrary POST hook requests through the server's
// handler in-process (no socket): any path, body, token and Host. Properties:
// never a panic; the status is one the server documents; a request is
// accepted (200 "{}") only with the right token, a loopback Host and no
// Origin, a path of exactly the status or a registered activity shape whose
// percent-decoded segments are non-empty and name a running seat, and a
// JSON body within the limit; and then the seat got exactly that body
// (docs/design.md §6 POST hooks).
func FuzzHookRequest(f *testing.F) {
	for _, seed := range []struct {
		path, body string
		auth       uint8
	}{
		{"status/t/cc", `{"model":{"id":"x"}}`, 0},
		{"activity/PreToolUse/t/cc", `{}`, 0},
		{"activity/PreToolUse/a%2Fb/acc%25t", `[1,2]`, 0},
		{"activity/Pre%20Tool/t/cc", `{}`, 0},
		{"status/t/cx", `{}`, 0},
		{"status/t/cc", `not json`, 0},
		{"status/t", `{}`, 0},
		{"status//cc", `{}`, 0},
		{"status/%zz/cc", `{}`, 0},
		{"status/t/cc", `{}`, 1},
		{"status/t/cc?token=x", `{}`, 2},
		{"../../etc/passwd", `{}`, 0},
		{"status/t/cc", `{"pad":"` + strings.Repeat("x", 300) + `"}`, 0},
		{"activity/PermissionRequest/t/cc", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`, 0},
	} {
		f.Add(seed.path, []byte(seed.body), seed.auth)
	}
	terms := newFakeTerms("t/cc", "a/b/acc%t")
	// A PermissionRequest naming a tool is held for its card: here only a
	// moment, then answered {} like any hook.
	h, err := NewHub(HubOptions{Terminals: terms, Accounts: testAccounts, Now: fixedNow, NewID: counterIDs(), PermissionWait: 10 * time.Millisecond})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(h.Close)
	s := newTestServer(f, h, ServerOptions{MaxHookBytes: 256})
	port := strings.TrimPrefix(s.HooksURL(), "http://127.0.0.1:")
	f.Fuzz(func(t *testing.T, path string, body []byte, variant uint8) {
		target := "/hooks/" + path
		u, err := url.ParseRequestURI(target)
		if err != nil {
			return // not a request line a client could send
		}
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:"+port+"/", strings.NewReader(string(body)))
		req.URL, req.RequestURI = u, target
		goodToken, goodHost, noOrigin := true, true, true
		switch variant % 5 {
		case 0:
		case 1:
			goodToken = false
		case 2:
			goodHost = false
			req.Host = "evil.example:" + port
		case 3:
			noOrigin = false
			req.Header.Set("Origin", "http://127.0.0.1:"+port)
		case 4:
			goodToken = false
			req.Header.Set("Authorization", "Bearer "+s.Token()+"x")
		}
		if goodToken {
			req.Header.Set("Authorization", "Bearer "+s.Token())
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		resp := rec.Result()
		got, _ := io.ReadAll(resp.Body)
		switch resp.StatusCode {
		case 200, 400, 401, 403, 404, 413, 503:
		default:
			t.Fatalf("%s: status %d", target, resp.StatusCode)
		}
		if resp.StatusCode != 200 {
			if variant%5 == 0 && path == "status/t/cc" && json.Valid(body) && len(body) <= 256 {
				t.Fatalf("a proper status hook got %d: %s", resp.StatusCode, got)
			}
			return
		}
		if !goodToken || !goodHost || !noOrigin {
			t.Fatalf("%s accepted without token, loopback Host or with an Origin (variant %d)", target, variant%5)
		}
		if string(got) != "{}" || !json.Valid(body) || len(body) > 256 {
			t.Fatalf("%s accepted: body %q, answered %q", target, body, got)
		}
		kind, topic, account := acceptedHook(t, target, u.EscapedPath())
		if got, ok := terms.lastReport(topic, account, kind); !ok || string(got.Body) != string(body) {
			t.Fatalf("%s accepted but the seat got %q for (%q, %q, %s), want %q", target, got.Body, topic, account, kind, body)
		}
	})
}

// acceptedHook checks that an accepted hook path has the status or a
// registered activity shape with non-empty decoded segments, and returns
// the kind, topic and account it names.
func acceptedHook(t *testing.T, target, escaped string) (kind, topic, account string) {
	t.Helper()
	segs := strings.Split(escaped[len("/hooks/"):], "/")
	for i, seg := range segs {
		v, err := url.PathUnescape(seg)
		if err != nil || v == "" {
			t.Fatalf("%s accepted with a bad segment %q", target, seg)
		}
		segs[i] = v
	}
	switch {
	case len(segs) == 3 && segs[0] == ReportStatus:
		return ReportStatus, segs[1], segs[2]
	case len(segs) == 4 && segs[0] == ReportActivity && slices.Contains(HookEvents, segs[1]):
		return ReportActivity, segs[2], segs[3]
	}
	t.Fatalf("%s accepted although it is no hook path", target)
	return "", "", ""
}

// FuzzParseAsk reads arbitrary PermissionRequest bodies for a card:
// never a panic, and what the card shows stays bounded — names without
// hidden characters, the summary within its cap and valid UTF-8, the
// suggestions within theirs, one raw suggestion for each shown.
func FuzzParseAsk(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"ls"}],"behavior":"allow","destination":"session"}]}`))
	f.Add([]byte(`{"hook_event_name":"PermissionRequest","tool_name":"mcp__a__b\u001b","tool_input":"\u0000\n","mcp_server":{"name":"x\u202e"},"agent_type":7}`))
	f.Add([]byte(`{"hook_event_name":"PermissionRequest","tool_name":"x","permission_suggestions":[1,{"type":""},{"type":"setMode","mode":{}}]}`))
	f.Add([]byte(`{"hook_event_name":"PermissionRequest","tool_name":"x","permission_suggestions":[{"type":"addRules","Type":"setMode","mode":"a","rules":[{"toolName":"R","TOOLNAME":"B"}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ask, raw, ok := parseAsk(body)
		if !ok {
			return
		}
		for _, name := range []string{ask.Tool, ask.MCPServer, ask.Agent} {
			if utf8.RuneCountInString(name) > maxAskLabel+1 || strings.ContainsFunc(name, hiddenRune) {
				t.Fatalf("a name the card shows: %q", name)
			}
		}
		if len(ask.Summary) > maxAskSummary || !utf8.ValidString(ask.Summary) || ask.SummaryLines < 1 {
			t.Fatalf("summary of %d bytes, %d lines", len(ask.Summary), ask.SummaryLines)
		}
		if len(ask.Suggestions) > maxSuggestions || len(raw) != len(ask.Suggestions) {
			t.Fatalf("%d suggestions, %d raw", len(ask.Suggestions), len(raw))
		}
		total := 0
		for i, r := range raw {
			total += len(r)
			if !json.Valid(r) {
				t.Fatalf("a raw suggestion that is not JSON: %q", r)
			}
			// What the CLI reads is what the card shows: no two keys
			// fold alike, and "type" as written is the card's type.
			var m map[string]json.RawMessage
			var typ string
			if !distinctKeys(r) || json.Unmarshal(r, &m) != nil || json.Unmarshal(m["type"], &typ) != nil || label(typ) != ask.Suggestions[i].Type {
				t.Fatalf("an offered suggestion a case-sensitive reader takes otherwise: %s as %+v", r, ask.Suggestions[i])
			}
		}
		if total > maxSuggestionBytes {
			t.Fatalf("%d bytes of suggestions", total)
		}
		if b := decision(PermissionAnswer{Allow: true, Always: true}, raw); !json.Valid(b) {
			t.Fatalf("the decision is not JSON: %q", b)
		}
	})
}
