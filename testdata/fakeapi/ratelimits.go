package fakeapi

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// CodexLimit is one rate-limit window as Codex 0.169.0 reads it from a
// /v1/responses reply (codex-rs codex-api/src/rate_limits.rs, docs/clis.md
// §3.6): the used percentage, the window's length and when it starts over.
type CodexLimit struct {
	UsedPercent   float64
	WindowMinutes int
	ResetsAt      time.Time // sent as Unix seconds; zero: not sent
}

// CodexLimits is one family of rate-limit headers: x-<limit>-primary-… and
// x-<limit>-secondary-…. Codex records each family as a rate_limits set
// with limit_id <limit> (hyphens as "_") in the rollout's token_count.
type CodexLimits struct {
	// Limit is the family; "" means "codex", the plan's own limits. Another
	// one ("codex-other") is a metered limit of one model.
	Limit              string
	Primary, Secondary *CodexLimit
}

// Header names Codex reads (prefix x-<limit>-), as the binary holds them.
const (
	codexUsedPercent   = "-used-percent"
	codexWindowMinutes = "-window-minutes"
	codexResetAt       = "-reset-at"
)

// Header returns the response headers carrying l.
func (l CodexLimits) Header() http.Header {
	h := http.Header{}
	prefix := "x-" + strings.ToLower(l.Limit)
	if l.Limit == "" {
		prefix = "x-codex"
	}
	for _, w := range []struct {
		name string
		lim  *CodexLimit
	}{{"primary", l.Primary}, {"secondary", l.Secondary}} {
		if w.lim == nil {
			continue
		}
		p := prefix + "-" + w.name
		h.Set(p+codexUsedPercent, strconv.FormatFloat(w.lim.UsedPercent, 'f', -1, 64))
		h.Set(p+codexWindowMinutes, strconv.Itoa(w.lim.WindowMinutes))
		if !w.lim.ResetsAt.IsZero() {
			h.Set(p+codexResetAt, strconv.FormatInt(w.lim.ResetsAt.Unix(), 10))
		}
	}
	return h
}

// ClaudeLimit is one plan window as Claude Code 2.1.328 reads it from a
// /v1/messages reply (docs/clis.md §2.9): the used fraction (0.23 is
// 23 %) and when the window starts over.
type ClaudeLimit struct {
	Utilization float64
	ResetsAt    time.Time // sent as Unix seconds; zero: not sent
}

// ClaudeLimits are the plan's 5-hour and 7-day windows sent as the
// anthropic-ratelimit-unified-* headers. Claude Code reads them only for a
// claude.ai subscription or a gateway credential (GatewayToken); it then
// puts them into its status line JSON as rate_limits.
type ClaudeLimits struct {
	FiveHour, SevenDay *ClaudeLimit
}

// Header returns the response headers carrying l: the overall status
// "allowed" and, per window present, its status, utilization and reset.
func (l ClaudeLimits) Header() http.Header {
	h := http.Header{}
	h.Set("anthropic-ratelimit-unified-status", "allowed")
	for _, w := range []struct {
		name string
		lim  *ClaudeLimit
	}{{"5h", l.FiveHour}, {"7d", l.SevenDay}} {
		if w.lim == nil {
			continue
		}
		p := "anthropic-ratelimit-unified-" + w.name
		h.Set(p+"-status", "allowed")
		h.Set(p+"-utilization", strconv.FormatFloat(w.lim.Utilization, 'f', -1, 64))
		if !w.lim.ResetsAt.IsZero() {
			h.Set(p+"-reset", strconv.FormatInt(w.lim.ResetsAt.Unix(), 10))
		}
	}
	return h
}

// GatewayToken is an unsigned JWT whose audience is "claude-gateway", for
// ANTHROPIC_AUTH_TOKEN (ClaudeSetup.AuthToken). Claude Code 2.1.328 reads
// the plan's rate-limit headers only for a claude.ai login or, with a
// custom ANTHROPIC_BASE_URL, for such a gateway credential (it decodes the
// JWT's payload, never checks a signature); an API key gets no rate_limits
// in its status line. The fake accepts any credential.
func GatewayToken() string {
	enc := base64.RawURLEncoding.EncodeToString
	head := enc([]byte(`{"alg":"none","typ":"JWT"}`))
	exp := time.Now().Add(365 * 24 * time.Hour).Unix()
	body := enc([]byte(`{"aud":"claude-gateway","sub":"pullcept-fake","exp":` + strconv.FormatInt(exp, 10) + `}`))
	return head + "." + body + ".fake"
}
