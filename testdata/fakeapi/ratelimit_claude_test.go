package fakeapi

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestClaudeRateLimitReply: a ClaudeRateLimit answer is a 429 with a
// rate_limit_error body, the request-id every Messages answer carries, and
// the "rejected" unified headers, which replace the "allowed" ones
// ClaudeLimits puts on every reply (docs/clis.md §2.17).
func TestClaudeRateLimitReply(t *testing.T) {
	t.Parallel()
	reset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	s := newServer(t, Options{
		ClaudeLimits: &ClaudeLimits{FiveHour: &ClaudeLimit{Utilization: 0.5, ResetsAt: reset}},
		Respond:      func(*Request) Reply { return ClaudeRateLimit(reset) },
	})
	resp := do(t, s, http.MethodPost, "/v1/messages?beta=true", claudePostBody, nil)
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("status = %d, want 429", resp.StatusCode)
	}
	body := decode(t, resp)
	e, _ := body["error"].(map[string]any)
	if body["type"] != "error" || e["type"] != "rate_limit_error" || e["message"] != "Rate limit exceeded" {
		t.Errorf("body = %v, want a rate_limit_error", body)
	}
	unix := strconv.FormatInt(reset.Unix(), 10)
	for name, want := range map[string]string{
		"request-id":                                       "req_fake_1",
		"anthropic-ratelimit-unified-status":               "rejected",
		"anthropic-ratelimit-unified-representative-claim": "five_hour",
		"anthropic-ratelimit-unified-reset":                unix,
		"anthropic-ratelimit-unified-5h-status":            "rejected",
		"anthropic-ratelimit-unified-5h-utilization":       "1",
		"anthropic-ratelimit-unified-5h-reset":             unix,
	} {
		if got := resp.Header.Values(name); len(got) != 1 || got[0] != want {
			t.Errorf("%s = %q, want just %q", name, got, want)
		}
	}
	if ra, err := strconv.Atoi(resp.Header.Get("retry-after")); err != nil || ra < 7000 || ra > 7200 {
		t.Errorf("retry-after = %q, want the seconds until the reset", resp.Header.Get("retry-after"))
	}

	weekly := ClaudeRejection{Claim: ClaudeSevenDay}.Header()
	if weekly.Get("anthropic-ratelimit-unified-7d-status") != "rejected" ||
		weekly.Get("anthropic-ratelimit-unified-representative-claim") != "seven_day" {
		t.Errorf("weekly refusal headers = %v", weekly)
	}
	for _, name := range []string{"anthropic-ratelimit-unified-reset", "retry-after", "anthropic-ratelimit-unified-5h-status"} {
		if weekly.Get(name) != "" {
			t.Errorf("weekly refusal with no reset time sends %s = %q", name, weekly.Get(name))
		}
	}
}
