package fakeapi

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"time"

	"github.com/pullcept/pullcept/config"
)

// Codex's ChatGPT plan limits, as Codex CLI 0.169.0 meets them
// (docs/clis.md §3.6, §3.7): a model call refused because the plan's usage
// limit is reached (CodexUsageLimit), and the ChatGPT backend's usage
// endpoint GET <chatgpt_base_url>/wham/usage, which `codex app-server`
// reads for account/rateLimits/read (CodexUsage; a CODEX_HOME prepared with
// CodexSetup.ChatGPTLogin points there).

// CodexUsageLimitPlan is the plan_type a CodexUsageLimit answer names.
// Codex 0.169.0 builds its message from it ("Upgrade to Pro" for plus).
const CodexUsageLimitPlan = "plus"

// CodexUsageLimit answers a Responses API call the way the ChatGPT backend
// refuses a plan whose usage limit is reached until resetsAt: HTTP 429 with
// {"error":{"type":"usage_limit_reached","message":…,"plan_type":"plus",
// "resets_at":<Unix s>,"resets_in_seconds":<s>}}. Codex 0.169.0 maps a 429
// whose error.type is "usage_limit_reached" to its UsageLimitReached error
// (codex-rs core/src/api_bridge.rs; it reads type, plan_type and resets_at,
// and the x-codex-* rate-limit headers of the same answer, which
// Options.CodexLimits adds), never retries it, and ends the turn: the
// rollout's task_complete carries error.codex_error_info
// "usage_limit_exceeded" and a message naming the reset time. A zero
// resetsAt sends no reset ("try again later").
func CodexUsageLimit(resetsAt time.Time) Reply {
	body := map[string]any{
		"type":      "usage_limit_reached",
		"message":   "The usage limit has been reached",
		"plan_type": CodexUsageLimitPlan,
	}
	if !resetsAt.IsZero() {
		body["resets_at"] = resetsAt.Unix()
		body["resets_in_seconds"] = max(0, int64(time.Until(resetsAt).Round(time.Second)/time.Second))
	}
	raw, err := json.Marshal(map[string]any{"error": body})
	if err != nil {
		panic(fmt.Sprintf("fakeapi: usage limit body: %v", err)) // plain values always encode
	}
	return Reply{Status: http.StatusTooManyRequests, Error: "The usage limit has been reached", ErrorBody: raw}
}

// The fake ChatGPT login's identity (CodexSetup.ChatGPTLogin). A
// CodexUsage answer names the same account and user unless told otherwise:
// Codex 0.169.0 reports ordinaryUsageAllowed only when both match the
// login.
const (
	CodexAccountID = "pullcept-fake-account"
	CodexUserID    = "pullcept-fake-user"
	codexEmail     = "seat@pullcept.invalid"
	codexLoginPlan = "plus"
)

// CodexUsage is the fake ChatGPT backend's answer to GET
// /backend-api/wham/usage (Options.CodexUsage), which Codex 0.169.0's
// app-server turns into its account/rateLimits/read answer (docs/clis.md
// §3.7):
//
//	{"plan_type":"plus","rate_limit":{"allowed":false,"limit_reached":true,
//	  "primary_window":{"used_percent":100,"limit_window_seconds":18000,
//	    "reset_after_seconds":3600,"reset_at":1796200000},
//	  "secondary_window":{…}},"credits":null,
//	  "account_id":"pullcept-fake-account","user_id":"pullcept-fake-user"}
//
// → {"ordinaryUsageAllowed":false,"accountId":"pullcept-fake-account",
// "rateLimits":{"limitId":"codex","primary":{"usedPercent":100,
// "windowDurationMins":300,"resetsAt":1796200000},"secondary":{…},
// "planType":"plus",…},"rateLimitsByLimitId":{"codex":{…}},…}.
type CodexUsage struct {
	// Allowed is rate_limit.allowed, which Codex answers as
	// ordinaryUsageAllowed (only when AccountID and UserID match the
	// login; otherwise ordinaryUsageAllowed is null).
	Allowed bool
	// LimitReached is rate_limit.limit_reached (Codex 0.169.0 parses it
	// and passes it on nowhere).
	LimitReached bool
	// Primary and Secondary are the two windows, positions only (Codex
	// passes them on as primary and secondary): used_percent (rounded: Codex
	// takes an integer), limit_window_seconds (WindowMinutes × 60; Codex
	// answers windowDurationMins rounded up) and reset_at (Unix s, answered
	// as resetsAt) with reset_after_seconds. Nil: the window is null.
	Primary, Secondary *CodexLimit
	// ReachedType is rate_limit_reached_type.type ("rate_limit_reached",
	// "workspace_owner_credits_depleted", …, answered as
	// rateLimitReachedType); "" sends null.
	ReachedType string
	// Plan is plan_type; "" means "plus".
	Plan string
	// AccountID and UserID are the answer's account_id and user_id; ""
	// means the fake login's (CodexAccountID, CodexUserID).
	AccountID, UserID string
	// Status, when non-zero, answers with this HTTP status and an empty
	// JSON object instead (account/rateLimits/read then fails with
	// "failed to fetch codex rate limits: …").
	Status int
}

// Body returns the wham/usage JSON object for u.
func (u CodexUsage) Body() map[string]any {
	plan, account, user := u.Plan, u.AccountID, u.UserID
	if plan == "" {
		plan = codexLoginPlan
	}
	if account == "" {
		account = CodexAccountID
	}
	if user == "" {
		user = CodexUserID
	}
	var reached any
	if u.ReachedType != "" {
		reached = map[string]any{"type": u.ReachedType}
	}
	return map[string]any{
		"plan_type": plan,
		"rate_limit": map[string]any{
			"allowed":          u.Allowed,
			"limit_reached":    u.LimitReached,
			"primary_window":   usageWindow(u.Primary),
			"secondary_window": usageWindow(u.Secondary),
		},
		"credits":                 nil,
		"rate_limit_reached_type": reached,
		"account_id":              account,
		"user_id":                 user,
	}
}

// usageWindow is one wham/usage window (all four keys are required).
func usageWindow(l *CodexLimit) any {
	if l == nil {
		return nil
	}
	w := map[string]any{
		"used_percent":         int64(math.Round(l.UsedPercent)),
		"limit_window_seconds": l.WindowMinutes * 60,
		"reset_after_seconds":  0,
		"reset_at":             0,
	}
	if !l.ResetsAt.IsZero() {
		w["reset_at"] = l.ResetsAt.Unix()
		w["reset_after_seconds"] = max(0, int64(time.Until(l.ResetsAt)/time.Second))
	}
	return w
}

// codexUsagePath is where Codex 0.169.0 asks for the plan's usage when
// chatgpt_base_url is <fake>/backend-api (a base URL holding
// "/backend-api" selects the /wham/ paths).
const codexUsagePath = "/backend-api/wham/usage"

// serveCodexUsage answers GET /backend-api/wham/usage from
// Options.CodexUsage (nil: an allowed plan with no windows).
func (s *Server) serveCodexUsage(w http.ResponseWriter, req *Request) {
	req.API = OpenAI
	u := CodexUsage{Allowed: true}
	if s.opts.CodexUsage != nil {
		u = s.opts.CodexUsage(req)
	}
	s.record(req, Reply{})
	s.logf("fakeapi #%d codex usage: allowed=%v status=%d", req.Seq, u.Allowed, u.Status)
	if u.Status != 0 {
		writeJSON(w, u.Status, map[string]any{})
		return
	}
	writeJSON(w, http.StatusOK, u.Body())
}

// codexLoginJWT is an unsigned JWT with the claims Codex 0.169.0 reads
// from a ChatGPT login's id_token (codex-rs login/src/token_data.rs: the
// "https://api.openai.com/auth" object's chatgpt_plan_type,
// chatgpt_user_id, chatgpt_account_id; email; exp). Codex decodes the
// payload and checks no signature.
func codexLoginJWT(now time.Time) string {
	enc := base64.RawURLEncoding.EncodeToString
	claims, err := json.Marshal(map[string]any{
		"email": codexEmail,
		"iat":   now.Unix(),
		"exp":   now.Add(365 * 24 * time.Hour).Unix(),
		"https://api.openai.com/auth": map[string]any{
			"chatgpt_plan_type":  codexLoginPlan,
			"chatgpt_user_id":    CodexUserID,
			"user_id":            CodexUserID,
			"chatgpt_account_id": CodexAccountID,
		},
	})
	if err != nil {
		panic(fmt.Sprintf("fakeapi: login claims: %v", err)) // plain values always encode
	}
	return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc(claims) + ".fake"
}

// writeCodexLogin writes <home>/auth.json: a ChatGPT login (auth_mode
// "chatgpt") whose id and access tokens are codexLoginJWT, refreshed now
// (so Codex sees no reason to call auth.openai.com to refresh it; the proxy
// fence would refuse that anyway).
func writeCodexLogin(home string) error {
	now := time.Now().UTC()
	jwt := codexLoginJWT(now)
	b, err := json.MarshalIndent(map[string]any{
		"auth_mode":      "chatgpt",
		"OPENAI_API_KEY": nil,
		"tokens": map[string]any{
			"id_token":      jwt,
			"access_token":  jwt,
			"refresh_token": "pullcept-fake-refresh-token",
			"account_id":    CodexAccountID,
		},
		"last_refresh": now.Format(time.RFC3339Nano),
	}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode auth.json: %w", err)
	}
	return config.WriteFileAtomic(filepath.Join(home, "auth.json"), append(b, '\n'), 0o600)
}

// codexLoginConfig adds the config.toml keys a fake ChatGPT login needs:
// chatgpt_base_url on the fake (its /backend-api/wham/… paths), auth kept
// in auth.json (cli_auth_credentials_store = "file", never a keyring), and
// [features] apps = false (with a ChatGPT login Codex 0.169.0 otherwise
// starts its "codex_apps" MCP client against <chatgpt_base_url>/ps/mcp,
// which the fake does not speak), and [notice] hide_rate_limit_model_nudge
// = true (with a login, a turn whose rate-limit headers put a window near
// its end opens "Approaching rate limits / Switch to gpt-6-luna …?", and a
// typed post answers that menu; docs/clis.md §3.8 G8). Model calls stay on
// the custom provider: the login changes neither their URL nor their
// headers (measured).
func codexLoginConfig(cfg map[string]any, fakeURL string) {
	cfg["chatgpt_base_url"] = fakeURL + "/backend-api"
	cfg["cli_auth_credentials_store"] = "file"
	object(cfg, "features")["apps"] = false
	object(cfg, "notice")["hide_rate_limit_model_nudge"] = true
}
