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
	} {
		f.Add(seed.path, []byte(seed.body), seed.auth)
	}
	terms := newFakeTerms("t/cc", "a/b/acc%t")
	h := newTestHub(f, nil, terms, testAccounts)
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
