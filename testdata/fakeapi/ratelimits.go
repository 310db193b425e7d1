package fakeapi

import (
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
