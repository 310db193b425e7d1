package codex

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/launch"
)

// An app-server Codex seat (spec «Codex の席を app-server 経由で起動する
// （#299）», docs/design.md §9 "App-server mode") runs two lines: its
// own `codex app-server` on a loopback port, and the real TUI attached to
// the conversation Pullcept opened there. launch.Build decides both; the
// Manager fills in what only the start knows (the token's digest, the port,
// the conversation id) and runs them (server.go).

// Words of the two lines only the start knows; the preview shows them so.
const (
	DigestWord = "<sha256>"
	PortWord   = "<port>"
	ThreadWord = "<conversation id>"
)

// EnvRemoteToken names the variable the TUI reads its bearer token
// from (--remote-auth-token-env) on Windows, where it has no gate
// (gate.go). Pullcept sets it in the TUI's environment only; an account's
// env cannot (names starting with PULLCEPT_ are the app's).
const EnvRemoteToken = "PULLCEPT_CODEX_REMOTE_TOKEN"

// ServerPlan is the server half of an app-server seat's launch.
type ServerPlan struct {
	// Argv is the server line: <command> <server options> -c
	// mcp_servers.<key>={…} app-server --listen ws://127.0.0.1:0 --ws-auth
	// capability-token --ws-token-sha256 <sha256> (DigestWord stands
	// for the digest).
	Argv []string
	// Thread is what the conversation is asked to run with ("" = the
	// server's own choice); the server's answer must say the same.
	Thread Thread
	// Config are the conversation's config overrides (thread/start's
	// config): model_reasoning_effort when an effort was asked.
	Config map[string]any
	// Character is the account's character as the conversation gets it
	// (docs/design.md §9 "Character").
	Character Character
}

// Character is an app-server seat's character: its Name ("" none) and
// where its text comes from — Li+'s style file .codex/output-styles/<name>.md
// (#281), or, Inline, the "# <name>" block of the user's own
// developer_instructions (#276, character.SelectInline).
type Character struct {
	Name   string
	Inline bool
}

// Thread is a conversation's settings, as asked and as answered.
type Thread struct {
	Model, Approval, Sandbox, Effort string
}

// ServerLine is the server's command line (launch.Server).
func (p *ServerPlan) ServerLine() []string { return p.Argv }

// Describe is what the conversation is asked to run with, for the preview
// (launch.Server), and an inline character's name ("inline: <name>").
func (p *ServerPlan) Describe() string {
	d := p.Thread.describe()
	if c := p.Character; c.Inline && c.Name != "" {
		if d != "" {
			d += " · "
		}
		d += "inline: " + c.Name
	}
	return d
}

// describe is t for the preview: "model gpt-5.5 · approval never · …",
// "" when nothing was asked.
func (t Thread) describe() string {
	var parts []string
	for _, f := range []struct{ name, v string }{{"model", t.Model}, {"approval", t.Approval}, {"sandbox", t.Sandbox}, {"effort", t.Effort}} {
		if f.v != "" {
			parts = append(parts, f.name+" "+f.v)
		}
	}
	return strings.Join(parts, " · ")
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
//     directory says where the seat runs; a subcommand, --remote,
//     --worktree with the reason hook mode gives, codexRefusal).
func codexAppServer(b *launch.Builder, opts []string) ([]string, error) {
	a, in := b.In.Account, b.In
	if err := launch.CheckLoopback(in.RoomURL, "ws"); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(in.PullceptPath) {
		return nil, fmt.Errorf("%w: %q", launch.ErrNoPullceptPath, in.PullceptPath)
	}
	r := &codexRoute{plan: &ServerPlan{}, fromFlag: map[string]bool{}}
	for i := 0; i < len(opts); i++ {
		used, err := r.option(opts[i], opts[i+1:])
		if err != nil {
			return nil, err
		}
		i += used
	}
	plan := r.plan
	for _, v := range []string{plan.Thread.Model, plan.Thread.Effort} {
		if strings.Contains(v, config.SessionIDPlaceholder) {
			return nil, fmt.Errorf("%w: %s has no place in an app-server seat's settings", launch.ErrPlaceholder, config.SessionIDPlaceholder)
		}
	}
	if plan.Thread.Effort != "" {
		plan.Config = map[string]any{"model_reasoning_effort": plan.Thread.Effort}
	}
	c, err := codexServerCharacter(a)
	if err != nil {
		return nil, err
	}
	plan.Character = c
	plan.Argv = append([]string{a.Command}, r.server...)
	plan.Argv = append(plan.Argv, codexConfig, "mcp_servers."+b.Key+"="+codexRoomTable(b),
		"app-server", "--listen", "ws://127.0.0.1:0", "--ws-auth", "capability-token", "--ws-token-sha256", DigestWord)

	addFlag := false
	switch a.ScreenMode {
	case config.ScreenInline:
		addFlag = !codexDecidesScreen(r.tui)
	case config.ScreenAlt:
	default:
		return nil, fmt.Errorf("%w %q", config.ErrBadScreenMode, a.ScreenMode)
	}
	if launch.HasPlaceholder(plan.Argv) {
		return nil, fmt.Errorf("%w: %s has no place on a Codex app-server line; remove it from the launch options", launch.ErrPlaceholder, config.SessionIDPlaceholder)
	}
	id := ThreadWord
	if in.Resume {
		id = config.SessionIDPlaceholder
	}
	argv := []string{a.Command, codexResume, id, "--remote", "unix://" + GateWord}
	if !usesGate(b.GOOS) {
		argv = []string{a.Command, codexResume, id, "--remote", "ws://127.0.0.1:" + PortWord, "--remote-auth-token-env", EnvRemoteToken}
	}
	argv = append(argv, codexNoNudge(append(slices.Clone(r.server), r.tui...))...) // the TUI shows the menu
	argv = append(argv, r.tui...)
	if addFlag {
		argv = append(argv, codexNoAltScreen)
	}
	b.Server = plan
	return argv, nil
}

// codexRoute sorts an app-server seat's launch options (codexAppServer).
type codexRoute struct {
	plan        *ServerPlan
	server, tui []string
	fromFlag    map[string]bool // conversation settings a flag set (a flag beats a -c)
}

// option routes the option w, whose following words are rest; used is how
// many of rest it took as its value.
func (r *codexRoute) option(w string, rest []string) (used int, err error) {
	name, inline, hasInline := strings.Cut(w, "=")
	if !strings.HasPrefix(w, "--") {
		name, inline, hasInline = w, "", false
	}
	arg := func() (string, error) {
		switch {
		case hasInline:
			return inline, nil
		case len(rest) == 0:
			return "", fmt.Errorf("%w: %s needs a value", ErrOption, name)
		}
		used = 1
		return rest[0], nil
	}
	noValue := func() error {
		if hasInline {
			return fmt.Errorf("%w: %s takes no value", ErrOption, name)
		}
		return nil
	}
	t := &r.plan.Thread
	switch name {
	case "-m", "--model":
		v, err := arg()
		return used, r.setFlag(&t.Model, "model", name, v, err, nil)
	case "-a", "--ask-for-approval":
		v, err := arg()
		return used, r.setFlag(&t.Approval, "approval", name, v, err, codexApprovals)
	case "-s", "--sandbox":
		v, err := arg()
		return used, r.setFlag(&t.Sandbox, "sandbox", name, v, err, codexSandboxes)
	case "--yolo", "--dangerously-bypass-approvals-and-sandbox":
		if err := noValue(); err != nil {
			return 0, err
		}
		_ = r.setFlag(&t.Approval, "approval", name, "never", nil, nil)
		return 0, r.setFlag(&t.Sandbox, "sandbox", name, "danger-full-access", nil, nil)
	case "-c", "--config":
		kv, err := arg()
		if err != nil {
			return 0, err
		}
		return used, r.config(name, kv)
	case "--enable", "--disable":
		v, err := arg()
		if err != nil {
			return 0, err
		}
		r.server = append(r.server, name, v)
		return used, nil
	case codexNoAltScreen:
		if err := noValue(); err != nil {
			return 0, err
		}
		if !slices.Contains(r.tui, w) { // Codex refuses it twice
			r.tui = append(r.tui, w)
		}
		return 0, nil
	case "-C", "--cd":
		return 0, fmt.Errorf("%w: %s: the account's working directory says where an app-server seat runs (set it to that directory, or use hook mode, which takes %s)", ErrOption, name, name)
	}
	if why := codexRefusal(w, name); why != "" {
		return 0, fmt.Errorf("%w: %s", ErrOption, why)
	}
	return 0, fmt.Errorf("%w: %q has no place in an app-server seat (the conversation, the server line or the terminal line); use hook mode for it, or remove it", ErrOption, w)
}

// setFlag sets a conversation setting from the flag named flag (err: its
// value's error; allowed: the values it may take, nil for any).
func (r *codexRoute) setFlag(dst *string, field, flag, v string, err error, allowed []string) error {
	if err != nil {
		return err
	}
	if allowed != nil && !slices.Contains(allowed, v) {
		return fmt.Errorf("%w: %s %q (want one of %s)", ErrOption, flag, v, strings.Join(allowed, ", "))
	}
	*dst, r.fromFlag[field] = v, true
	return nil
}

// codexConfigFields are the -c keys that are conversation settings.
var codexConfigFields = map[string]string{"model": "model", "approval_policy": "approval", "sandbox_mode": "sandbox", "model_reasoning_effort": "effort"}

// config routes one -c/--config key=value: tui.* to the terminal line,
// the rest to the server line, and the conversation's settings also to
// the conversation unless a flag set them.
func (r *codexRoute) config(name, kv string) error {
	key, raw, ok := strings.Cut(kv, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return fmt.Errorf("%w: %s %q is not key=value", ErrOption, name, kv)
	}
	if key == "tui" || strings.HasPrefix(key, "tui.") {
		r.tui = append(r.tui, codexConfig, kv)
		return nil
	}
	r.server = append(r.server, codexConfig, kv)
	field := codexConfigFields[key]
	if field == "" || r.fromFlag[field] {
		return nil
	}
	t := &r.plan.Thread
	dst := map[string]*string{"model": &t.Model, "approval": &t.Approval, "sandbox": &t.Sandbox, "effort": &t.Effort}[field]
	*dst = codexConfigString(raw)
	return nil
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

// codexServerCharacter is an app-server account's character (Character):
// inline when its project has no Li+ style files (character.CodexInline),
// the name checked for that mode — #281's grammar for a style file's, a
// heading's rule for an inline one. Only the start reads the text: the
// style file, or the heading in the developer_instructions the server
// reads for the seat (server.go).
func codexServerCharacter(a config.Account) (Character, error) {
	name := strings.TrimSpace(a.Character)
	if name == "" {
		return Character{}, nil
	}
	inline, err := character.CodexInline(a.WorkDir)
	if err != nil {
		return Character{}, fmt.Errorf("character %q: cannot tell whether the project selects it by a Li+ style file or inline: %w", name, err)
	}
	check := character.CheckCodexName
	if inline {
		check = character.CheckInlineName
	}
	if err := check(name); err != nil {
		return Character{}, fmt.Errorf("character: %w", err)
	}
	return Character{Name: name, Inline: inline}, nil
}

// AppServer reports whether a's seats start in app-server mode (spec
// #299: the standard for Codex accounts; an explicit false keeps hook
// mode).
func AppServer(a config.Account) bool { return a.AppServer() }
