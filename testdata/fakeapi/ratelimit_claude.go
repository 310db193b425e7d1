package fakeapi

import (
	"net/http"
	"strconv"
	"time"
)

// Claude plan windows as Claude Code 2.1.328 names them in
// anthropic-ratelimit-unified-representative-claim and in a refusal's
// quotaLimits.rateLimitType (docs/clis.md §2.17).
const (
	ClaudeFiveHour = "five_hour"
	ClaudeSevenDay = "seven_day"
)

// ClaudeRejection is the API's refusal of a model call because the plan's
// usage limit is reached: HTTP 429, a rate_limit_error body and the
// anthropic-ratelimit-unified-* headers saying "rejected". Claude Code
// 2.1.328 reads such a refusal only where it reads the plan's headers at
// all (a claude.ai login, or GatewayToken as ANTHROPIC_AUTH_TOKEN with a
// custom base URL); it then writes a parent assistant entry with
// isApiErrorMessage, error "rate_limit" and quotaLimits into its
// transcript (docs/clis.md §2.17).
type ClaudeRejection struct {
	// Claim is the window that ran out, sent as
	// anthropic-ratelimit-unified-representative-claim and recorded as
	// quotaLimits.rateLimitType; "" means ClaudeFiveHour. Claude also knows
	// "seven_day_opus", "seven_day_sonnet", "overage".
	Claim string
	// ResetsAt is when the window starts over: anthropic-ratelimit-unified-reset
	// in Unix seconds, recorded as quotaLimits.resetsAt (seconds). Zero: not
	// sent (Claude then records no resetsAt).
	ResetsAt time.Time
	// Message is the error body's message; "" means "Rate limit exceeded"
	// (what Claude Code's own limit simulator puts there). Claude does not
	// show it for a plan refusal.
	Message string
}

// Header returns the refusal's headers, as Claude Code's own limit
// simulator (its "session-limit-reached" / "weekly-limit-reached"
// scenarios) builds them: the overall status "rejected", the
// representative claim, the overall reset, retry-after in seconds until
// the reset, and the claimed window's own status, utilization 1 and reset
// (the -5h- or -7d- headers, as ClaudeLimits sends them).
func (r ClaudeRejection) Header() http.Header {
	claim := r.Claim
	if claim == "" {
		claim = ClaudeFiveHour
	}
	h := http.Header{}
	h.Set("anthropic-ratelimit-unified-status", "rejected")
	h.Set("anthropic-ratelimit-unified-representative-claim", claim)
	window := map[string]string{ClaudeFiveHour: "5h", ClaudeSevenDay: "7d"}[claim]
	if window != "" {
		p := "anthropic-ratelimit-unified-" + window
		h.Set(p+"-status", "rejected")
		h.Set(p+"-utilization", "1")
	}
	if !r.ResetsAt.IsZero() {
		reset := strconv.FormatInt(r.ResetsAt.Unix(), 10)
		h.Set("anthropic-ratelimit-unified-reset", reset)
		if window != "" {
			h.Set("anthropic-ratelimit-unified-"+window+"-reset", reset)
		}
		if wait := time.Until(r.ResetsAt); wait > 0 {
			h.Set("retry-after", strconv.FormatInt(int64(wait.Round(time.Second)/time.Second), 10))
		}
	}
	return h
}

// Reply returns the refusal as a model call's answer.
func (r ClaudeRejection) Reply() Reply {
	msg := r.Message
	if msg == "" {
		msg = "Rate limit exceeded"
	}
	return Reply{Status: http.StatusTooManyRequests, Error: msg, Header: r.Header()}
}

// ClaudeRateLimit answers a Messages API call the way the API refuses a
// plan whose 5-hour window is used up until resetsAt (ClaudeRejection with
// the default claim).
func ClaudeRateLimit(resetsAt time.Time) Reply {
	return ClaudeRejection{ResetsAt: resetsAt}.Reply()
}
