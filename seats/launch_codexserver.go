package seats

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/pullcept/pullcept/config"
)

// An app-server Codex seat (spec «Codex の席を app-server 経由で起動する
// （#299）», docs/design.md §9 "Codex app-server seats") runs two lines: its
// own `codex app-server` on a loopback port, and the real TUI attached to
// the conversation Pullcept opened there. BuildLaunch decides both; the
// Manager fills in what only the start knows (the token's digest, the port,
// the conversation id) and runs them (codexserver.go).

// Words of the two lines only the start knows; the preview shows them so.
const (
	CodexDigestWord = "<sha256>"
	CodexPortWord   = "<port>"
	CodexThreadWord = "<conversation id>"
)

// EnvCodexRemoteToken names the variable the TUI reads its bearer token
// from (--remote-auth-token-env). Pullcept sets it in the TUI's environment
// only; an account's env cannot (names starting with PULLCEPT_ are the
// app's).
const EnvCodexRemoteToken = "PULLCEPT_CODEX_REMOTE_TOKEN"

// CodexServerPlan is the server half of an app-server seat's launch.
type CodexServerPlan struct {
	// Argv is the server line: <command> <server options> -c
	// mcp_servers.<key>={…} app-server --listen ws://127.0.0.1:0 --ws-auth
	// capability-token --ws-token-sha256 <sha256> (CodexDigestWord stands
	// for the digest).
	Argv []string
	// Thread is what the conversation is asked to run with ("" = the
	// server's own choice); the server's answer must say the same.
	Thread CodexThread
	// Config are the conversation's config overrides (thread/start's
	// config): model_reasoning_effort when an effort was asked.
	Config map[string]any
}

// CodexThread is a conversation's settings, as asked and as answered.
type CodexThread struct {
	Model, Approval, Sandbox, Effort string
}

// Codex values the options may name (codex --help).
var (
	codexApprovals = []string{"untrusted", "on-request", "never"}
	codexSandboxes = []string{"read-only", "workspace-write", "danger-full-access"}
)

// codexAppServer builds an app-server seat's TUI line and its server plan,
// routing each launch option to where it belongs (spec #299 «起動オプション
// は、server・端末・会話のどれかに行き先がある物だけを受ける»):
//
//   - the conversation: -m/--model, -a/--ask-for-approval, -s/--sandbox,
//     --yolo (--dangerously-bypass-approvals-and-sandbox: approval never,
//     sandbox danger-full-access), and -c of model, approval_policy,
//     sandbox_mode, model_reasoning_effort (a flag wins over the -c of the
//     same setting; the -c also goes on the server line);
//   - the server line: every other -c/--config except tui.*, --enable,
//     --disable;
//   - the TUI line: -c tui.*, --no-alt-screen;
//   - anything else is refused, naming it (-C/--cd: the account's working
//     directory says where the seat runs).
func (b *lineBuilder) codexAppServer(opts []string) ([]string, *CodexServerPlan, error) {
	a, in := b.in.Account, b.in
	if err := checkLoopback(in.RoomURL, "ws"); err != nil {
		return nil, nil, err
	}
	if !filepath.IsAbs(in.PullceptPath) {
		return nil, nil, fmt.Errorf("%w: %q", ErrNoPullceptPath, in.PullceptPath)
	}
	plan := &CodexServerPlan{}
	var server, tui []string
	fromFlag := map[string]bool{}
	setFlag := func(dst *string, field, v string) { *dst, fromFlag[field] = v, true }
	value := func(i int, w string) (string, error) {
		if i+1 >= len(opts) {
			return "", fmt.Errorf("%w: %s needs a value", ErrCodexOption, w)
		}
		return opts[i+1], nil
	}
	for i := 0; i < len(opts); i++ {
		w := opts[i]
		name, inline, hasInline := strings.Cut(w, "=")
		if !strings.HasPrefix(w, "--") {
			name, inline, hasInline = w, "", false
		}
		arg := func() (string, error) {
			if hasInline {
				return inline, nil
			}
			v, err := value(i, name)
			if err == nil {
				i++
			}
			return v, err
		}
		switch name {
		case "-m", "--model":
			v, err := arg()
			if err != nil {
				return nil, nil, err
			}
			setFlag(&plan.Thread.Model, "model", v)
		case "-a", "--ask-for-approval":
			v, err := arg()
			if err != nil {
				return nil, nil, err
			}
			if !slices.Contains(codexApprovals, v) {
				return nil, nil, fmt.Errorf("%w: %s %q (want one of %s)", ErrCodexOption, name, v, strings.Join(codexApprovals, ", "))
			}
			setFlag(&plan.Thread.Approval, "approval", v)
		case "-s", "--sandbox":
			v, err := arg()
			if err != nil {
				return nil, nil, err
			}
			if !slices.Contains(codexSandboxes, v) {
				return nil, nil, fmt.Errorf("%w: %s %q (want one of %s)", ErrCodexOption, name, v, strings.Join(codexSandboxes, ", "))
			}
			setFlag(&plan.Thread.Sandbox, "sandbox", v)
		case "--yolo", "--dangerously-bypass-approvals-and-sandbox":
			if hasInline {
				return nil, nil, fmt.Errorf("%w: %s takes no value", ErrCodexOption, name)
			}
			setFlag(&plan.Thread.Approval, "approval", "never")
			setFlag(&plan.Thread.Sandbox, "sandbox", "danger-full-access")
		case "-c", "--config":
			kv, err := arg()
			if err != nil {
				return nil, nil, err
			}
			key, raw, ok := strings.Cut(kv, "=")
			key = strings.TrimSpace(key)
			if !ok || key == "" {
				return nil, nil, fmt.Errorf("%w: %s %q is not key=value", ErrCodexOption, name, kv)
			}
			if key == "tui" || strings.HasPrefix(key, "tui.") {
				tui = append(tui, codexConfig, kv)
				continue
			}
			server = append(server, codexConfig, kv)
			field := map[string]string{"model": "model", "approval_policy": "approval", "sandbox_mode": "sandbox", "model_reasoning_effort": "effort"}[key]
			if field == "" || fromFlag[field] {
				continue
			}
			v := codexConfigString(raw)
			switch field {
			case "model":
				plan.Thread.Model = v
			case "approval":
				plan.Thread.Approval = v
			case "sandbox":
				plan.Thread.Sandbox = v
			case "effort":
				plan.Thread.Effort = v
			}
		case "--enable", "--disable":
			v, err := arg()
			if err != nil {
				return nil, nil, err
			}
			server = append(server, name, v)
		case codexNoAltScreen:
			if hasInline {
				return nil, nil, fmt.Errorf("%w: %s takes no value", ErrCodexOption, name)
			}
			if !slices.Contains(tui, w) { // Codex refuses it twice
				tui = append(tui, w)
			}
		case "-C", "--cd":
			return nil, nil, fmt.Errorf("%w: %s: the account's working directory says where the seat runs", ErrCodexOption, name)
		default:
			return nil, nil, fmt.Errorf("%w: %q has no place in an app-server seat (the conversation, the server line or the terminal line); use hook mode for it, or remove it", ErrCodexOption, w)
		}
	}
	for _, v := range []string{plan.Thread.Model, plan.Thread.Effort} {
		if strings.Contains(v, config.SessionIDPlaceholder) {
			return nil, nil, fmt.Errorf("%w: %s has no place in an app-server seat's settings", ErrPlaceholder, config.SessionIDPlaceholder)
		}
	}
	if plan.Thread.Effort != "" {
		plan.Config = map[string]any{"model_reasoning_effort": plan.Thread.Effort}
	}
	plan.Argv = append([]string{a.Command}, server...)
	plan.Argv = append(plan.Argv, codexConfig, "mcp_servers."+b.key+"="+b.codexServer(),
		"app-server", "--listen", "ws://127.0.0.1:0", "--ws-auth", "capability-token", "--ws-token-sha256", CodexDigestWord)

	addFlag := false
	switch a.ScreenMode {
	case config.ScreenInline:
		addFlag = !codexDecidesScreen(tui)
	case config.ScreenAlt:
	default:
		return nil, nil, fmt.Errorf("%w %q", config.ErrBadScreenMode, a.ScreenMode)
	}
	id := CodexThreadWord
	if in.Resume {
		id = config.SessionIDPlaceholder
	}
	argv := []string{a.Command, codexResume, id, "--remote", "ws://127.0.0.1:" + CodexPortWord, "--remote-auth-token-env", EnvCodexRemoteToken}
	argv = append(argv, tui...)
	if addFlag {
		argv = append(argv, codexNoAltScreen)
	}
	return argv, plan, nil
}

// codexConfigString reads a -c value the way Codex does: as TOML, else as
// the raw text (codex --help: "If it fails to parse as TOML, the raw string
// is used as a literal"). A non-string TOML value is shown as written.
func codexConfigString(raw string) string {
	var doc map[string]any
	if toml.Unmarshal([]byte("v = "+raw), &doc) == nil {
		if s, ok := doc["v"].(string); ok {
			return s
		}
	}
	return strings.TrimSpace(raw)
}

// CodexAppServer reports whether a's seats start in app-server mode (spec
// #299: the standard for Codex accounts; an explicit false keeps hook
// mode).
func CodexAppServer(a config.Account) bool { return a.AppServer() }
