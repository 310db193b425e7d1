package fakeapi

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// TestCodexUsageLimitAnswer: the refusal Codex 0.169.0 maps to
// UsageLimitReached is HTTP 429 with error.type "usage_limit_reached",
// plan_type and resets_at in Unix seconds, with the x-codex-* headers of
// Options.CodexLimits on it; the exchange records the reply.
func TestCodexUsageLimitAnswer(t *testing.T) {
	t.Parallel()
	reset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	srv, err := New(Options{
		Respond:     func(*Request) Reply { return CodexUsageLimit(reset) },
		CodexLimits: []CodexLimits{{Primary: &CodexLimit{UsedPercent: 100, WindowMinutes: 300, ResetsAt: reset}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	resp := loadFixture(t, "codex_post").send(t, srv)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var got struct {
		Error struct {
			Type            string `json:"type"`
			Message         string `json:"message"`
			PlanType        string `json:"plan_type"`
			ResetsAt        int64  `json:"resets_at"`
			ResetsInSeconds int64  `json:"resets_in_seconds"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	e := got.Error
	if e.Type != "usage_limit_reached" || e.PlanType != "plus" || e.ResetsAt != reset.Unix() || e.Message == "" ||
		e.ResetsInSeconds < 7190 || e.ResetsInSeconds > 7200 {
		t.Errorf("error = %+v", e)
	}
	if h := resp.Header.Get("x-codex-primary-used-percent"); h != "100" {
		t.Errorf("x-codex-primary-used-percent = %q, want the limits on the refusal too", h)
	}
	exs := srv.Exchanges()
	if len(exs) != 1 || exs[0].Reply.Status != http.StatusTooManyRequests || string(exs[0].Reply.ErrorBody) != string(body) {
		t.Errorf("recorded %+v", exs)
	}

	// No reset time: no resets_at, and Codex says "try again later".
	if b := string(CodexUsageLimit(time.Time{}).ErrorBody); strings.Contains(b, "resets_") {
		t.Errorf("zero reset: %s", b)
	}
}

// TestCodexUsageAnswer: GET /backend-api/wham/usage answers the shape
// Codex 0.169.0 parses (plan_type, rate_limit{allowed, limit_reached,
// primary_window, secondary_window}, account_id, user_id, …), from
// Options.CodexUsage or, without one, an allowed plan with no windows.
func TestCodexUsageAnswer(t *testing.T) {
	t.Parallel()
	reset := time.Now().Add(90 * time.Minute).Truncate(time.Second)
	week := time.Now().Add(72 * time.Hour).Truncate(time.Second)
	get := func(opts Options) (int, map[string]any, *Server) {
		t.Helper()
		srv, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodGet, "/backend-api/wham/usage", nil)
		req.Header.Set("Authorization", "Bearer x")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var m map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			t.Fatalf("body %s: %v", rec.Body, err)
		}
		return rec.Code, m, srv
	}
	code, m, srv := get(Options{CodexUsage: func(r *Request) CodexUsage {
		if r.Header.Get("Authorization") != "Bearer x" {
			t.Errorf("the hook sees the request's headers: %v", r.Header)
		}
		return CodexUsage{
			LimitReached: true,
			Primary:      &CodexLimit{UsedPercent: 99.6, WindowMinutes: 300, ResetsAt: reset},
			Secondary:    &CodexLimit{UsedPercent: 40, WindowMinutes: 10080, ResetsAt: week},
			ReachedType:  "rate_limit_reached",
		}
	}})
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	b, _ := json.Marshal(m)
	want := `{"account_id":"pullcept-fake-account","credits":null,"plan_type":"plus",` +
		`"rate_limit":{"allowed":false,"limit_reached":true,` +
		`"primary_window":{"limit_window_seconds":18000,"reset_after_seconds":RA,"reset_at":` + unixNum(reset) + `,"used_percent":100},` +
		`"secondary_window":{"limit_window_seconds":604800,"reset_after_seconds":RB,"reset_at":` + unixNum(week) + `,"used_percent":40}},` +
		`"rate_limit_reached_type":{"type":"rate_limit_reached"},"user_id":"pullcept-fake-user"}`
	rl := m["rate_limit"].(map[string]any)
	ra := rl["primary_window"].(map[string]any)["reset_after_seconds"].(float64)
	rb := rl["secondary_window"].(map[string]any)["reset_after_seconds"].(float64)
	if ra < 5390 || ra > 5400 || rb < 259190 || rb > 259200 {
		t.Errorf("reset_after_seconds = %v, %v", ra, rb)
	}
	want = strings.NewReplacer("RA", jsonNum(ra), "RB", jsonNum(rb)).Replace(want)
	if string(b) != want {
		t.Errorf("usage =\n%s\nwant\n%s", b, want)
	}
	if exs := srv.Exchanges(); len(exs) != 1 || exs[0].Request.ModelCall || exs[0].Request.Path != "/backend-api/wham/usage" {
		t.Errorf("recorded %+v", exs)
	}

	// Default: allowed, no windows; another account; an HTTP failure.
	_, m, _ = get(Options{})
	if rl := m["rate_limit"].(map[string]any); rl["allowed"] != true || rl["primary_window"] != nil || rl["secondary_window"] != nil {
		t.Errorf("default usage = %v", m)
	}
	_, m, _ = get(Options{CodexUsage: func(*Request) CodexUsage { return CodexUsage{AccountID: "a", UserID: "u", Plan: "pro"} }})
	if m["account_id"] != "a" || m["user_id"] != "u" || m["plan_type"] != "pro" {
		t.Errorf("overridden usage = %v", m)
	}
	if code, _, _ = get(Options{CodexUsage: func(*Request) CodexUsage { return CodexUsage{Status: http.StatusBadGateway} }}); code != http.StatusBadGateway {
		t.Errorf("status = %d", code)
	}
}

func unixNum(t time.Time) string { return jsonNum(float64(t.Unix())) }

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// TestPrepareCodexChatGPTLogin: the fake login is auth.json with an
// unsigned JWT whose claims name the fake account, user and plan, plus
// chatgpt_base_url on the fake, file credentials and no apps MCP client;
// the model provider is unchanged.
func TestPrepareCodexChatGPTLogin(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "codex")
	before := time.Now()
	if _, err := PrepareCodex(CodexSetup{Home: home, BaseURL: "http://127.0.0.1:4242/v1", ChatGPTLogin: true}); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	b, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		ChatGPTBaseURL string          `toml:"chatgpt_base_url"`
		Store          string          `toml:"cli_auth_credentials_store"`
		Provider       string          `toml:"model_provider"`
		Features       map[string]bool `toml:"features"`
		Notice         map[string]any  `toml:"notice"`
		Providers      map[string]struct {
			BaseURL string `toml:"base_url"`
		} `toml:"model_providers"`
	}
	if err := toml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.ChatGPTBaseURL != "http://127.0.0.1:4242/backend-api" || cfg.Store != "file" || cfg.Features["apps"] ||
		cfg.Notice["hide_rate_limit_model_nudge"] != true ||
		cfg.Provider != CodexProvider || cfg.Providers[CodexProvider].BaseURL != "http://127.0.0.1:4242/v1" {
		t.Errorf("config.toml:\n%s", b)
	}
	auth := readJSONFile(t, filepath.Join(home, "auth.json"))
	tokens, _ := auth["tokens"].(map[string]any)
	if auth["auth_mode"] != "chatgpt" || tokens["account_id"] != CodexAccountID || tokens["refresh_token"] == "" {
		t.Fatalf("auth.json = %v", auth)
	}
	if fi, err := os.Stat(filepath.Join(home, "auth.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("auth.json mode: %v %v", fi, err)
	}
	refreshed, err := time.Parse(time.RFC3339Nano, auth["last_refresh"].(string))
	// Refreshed now: during PrepareCodex (an order, not a time bound).
	if err != nil || refreshed.Before(before) || refreshed.After(after) {
		t.Errorf("last_refresh = %v (%v)", auth["last_refresh"], err)
	}
	for _, key := range []string{"id_token", "access_token"} {
		jwt, _ := tokens[key].(string)
		parts := strings.Split(jwt, ".")
		if len(parts) != 3 || parts[2] == "" {
			t.Fatalf("%s %q is not a JWT", key, jwt)
		}
		payload, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			t.Fatal(err)
		}
		var claims struct {
			Email string `json:"email"`
			Exp   int64  `json:"exp"`
			Auth  struct {
				Plan    string `json:"chatgpt_plan_type"`
				User    string `json:"chatgpt_user_id"`
				Account string `json:"chatgpt_account_id"`
			} `json:"https://api.openai.com/auth"`
		}
		if err := json.Unmarshal(payload, &claims); err != nil {
			t.Fatal(err)
		}
		if claims.Auth.Account != CodexAccountID || claims.Auth.User != CodexUserID || claims.Auth.Plan != "plus" ||
			claims.Email == "" || time.Until(time.Unix(claims.Exp, 0)) < 300*24*time.Hour {
			t.Errorf("%s claims = %+v", key, claims)
		}
	}
}
