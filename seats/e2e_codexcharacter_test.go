//go:build linux || darwin

package seats_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// What the fake Li+ hooks hand the model, and the files they leave.
const (
	styleHookMarker = "STYLE-HOOK-MARKER-9f3"
	otherHookMarker = "OTHER-HOOK-MARKER-4b1"
	styleHookRan    = "style-ran.txt"
	otherHookRan    = "other-ran.txt"
)

// liplusProject makes dir a project with Li+'s Codex hooks as Li+
// registers them (.codex/hooks.json): a SessionStart hook running
// .codex/hooks/codex-output-style.py — here a stand-in that hands the model
// styleHookMarker as additional context and notes each run — and, in
// another group, a second SessionStart hook doing the same with
// otherHookMarker; plus the style file luna.md.
func liplusProject(t *testing.T, dir string) {
	t.Helper()
	hooks := filepath.Join(dir, ".codex", "hooks")
	styles := filepath.Join(dir, ".codex", "output-styles")
	for _, d := range []string{hooks, styles} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := func(marker, ran string) string {
		return "import json, sys\nsys.stdin.read()\n" +
			fmt.Sprintf("open(%q, 'a').write('ran\\n')\n", filepath.Join(dir, ran)) +
			fmt.Sprintf("print(json.dumps({'hookSpecificOutput': {'hookEventName': 'SessionStart', 'additionalContext': %q}}))\n", marker)
	}
	files := map[string]string{
		filepath.Join(hooks, "codex-output-style.py"): script(styleHookMarker, styleHookRan),
		filepath.Join(hooks, "other.py"):              script(otherHookMarker, otherHookRan),
		filepath.Join(styles, "luna.md"):              "---\nname: luna\n---\nYou are Luna, CHARACTER BODY.\n",
	}
	command := func(name, args string) string {
		return fmt.Sprintf("python3 %q%s", filepath.Join(hooks, name), args)
	}
	group := func(cmd string) map[string]any {
		return map[string]any{"matcher": "startup|resume|clear|compact",
			"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": 30}}}
	}
	reg, err := json.Marshal(map[string]any{"hooks": map[string]any{"SessionStart": []any{
		group(command("other.py", "")),
		group(command("codex-output-style.py", fmt.Sprintf(" hook --root %q", dir))),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	files[filepath.Join(dir, ".codex", "hooks.json")] = string(reg)
	for p, s := range files {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// trustCodexHooks trusts every hook Codex lists for dir, as a person does
// in Codex's /hooks: it asks the real CLI's app-server (stdio) for
// hooks/list and writes each hook's hash as hooks.state.<key>.trusted_hash
// into CODEX_HOME's config.toml. It returns the hooks' keys.
func trustCodexHooks(t *testing.T, env []string, home, dir string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), e2eWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, fakeapi.CLIPath(t, fakeapi.CLICodex), "app-server")
	cmd.Dir, cmd.Env = dir, env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	for _, m := range []string{
		`{"id":1,"method":"initialize","params":{"clientInfo":{"name":"pullcept-test","version":"1"}}}`,
		`{"method":"initialized"}`,
		fmt.Sprintf(`{"id":2,"method":"hooks/list","params":{"cwds":[%q]}}`, dir),
	} {
		if _, err := fmt.Fprintln(in, m); err != nil {
			t.Fatal(err)
		}
	}
	var answer struct {
		ID     int `json:"id"`
		Result struct {
			Data []struct {
				Hooks []struct{ Key, CurrentHash string }
			}
		}
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for answer.ID != 2 && sc.Scan() {
		answer.ID = 0
		_ = json.Unmarshal(sc.Bytes(), &answer)
	}
	if answer.ID != 2 {
		t.Fatalf("no hooks/list answer from codex app-server: %v", sc.Err())
	}
	path := filepath.Join(home, "config.toml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{}
	if err := toml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	hooks, _ := cfg["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
		cfg["hooks"] = hooks
	}
	state, _ := hooks["state"].(map[string]any)
	if state == nil {
		state = map[string]any{}
		hooks["state"] = state
	}
	var keys []string
	for _, e := range answer.Result.Data {
		for _, h := range e.Hooks {
			state[h.Key] = map[string]any{"trusted_hash": h.CurrentHash}
			keys = append(keys, h.Key)
		}
	}
	if b, err = toml.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return keys
}

// hooksTable is the [hooks] table of CODEX_HOME's config.toml, as JSON.
func hooksTable(t *testing.T, home string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{}
	if err := toml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(cfg["hooks"])
	if err != nil {
		t.Fatal(err)
	}
	return string(j)
}

// hookRuns is how often the fake hook that leaves ran in dir ran.
func hookRuns(dir, ran string) int {
	b, _ := os.ReadFile(filepath.Join(dir, ran))
	return strings.Count(string(b), "ran\n")
}

// sessionText is every model call of a session's request body, joined.
func sessionText(r *rig, session string) string {
	var b strings.Builder
	for _, ex := range r.sessionCalls(session) {
		b.Write(ex.Request.Body)
	}
	return b.String()
}

// answerOnce posts "hello @<name>" and waits for the seat's reply.
func answerOnce(t *testing.T, r *rig, id, name string) room.Post {
	t.Helper()
	hello := r.post("hello @" + name)
	r.waitPost(name+"'s reply", func(p room.Post) bool { return p.Account == id })
	return hello
}

// TestE2ECodexStyleHookOff: in a project with Li+'s Codex hooks, an
// app-server seat that sends its character in its developer instructions
// turns Li+'s output-style SessionStart hook off for its own conversation,
// so the character arrives once: the real Codex 0.169.0 never runs the
// hook, the model gets the style file's body and the other SessionStart
// hook's context, and no file is written. The control seat, without a
// character, shows the hook does run there and its context reaches the
// model (Pullcept sends no character, so the hook is left on).
func TestE2ECodexStyleHookOff(t *testing.T) {
	r := newRig(t, nil)
	home := filepath.Join(t.TempDir(), "codex-home")
	cody, _ := codexServerAccount(t, r, home)
	cody.LaunchOptions = ""
	r.addAccount(cody)
	liplusProject(t, cody.WorkDir)
	env, err := fakeapi.PrepareCodex(fakeapi.CodexSetup{Home: home, WorkDirs: []string{cody.WorkDir}, BaseURL: r.base})
	if err != nil {
		t.Fatal(err)
	}
	r.setEnv(env)
	keys := trustCodexHooks(t, env, home, cody.WorkDir)
	if len(keys) != 2 {
		t.Fatalf("codex lists hooks %q, want the two registered", keys)
	}
	hooksFile := filepath.Join(cody.WorkDir, ".codex", "hooks.json")
	before, err := os.ReadFile(hooksFile)
	if err != nil {
		t.Fatal(err)
	}
	stateBefore := hooksTable(t, home)

	// The control: no character, Li+'s hook left on, and it runs.
	plain := cody
	plain.ID, plain.Name, plain.Character = "plain", "Plain", ""
	r.addAccount(plain)
	res, s := r.start(plain.ID)
	r.waitReady(plain.ID, s)
	answerOnce(t, r, plain.ID, plain.Name)
	if text := sessionText(r, res.SessionID); !strings.Contains(text, styleHookMarker) || !strings.Contains(text, otherHookMarker) {
		t.Fatalf("control: the hooks' context did not reach the model (style %v, other %v): the project's hooks do not run",
			strings.Contains(text, styleHookMarker), strings.Contains(text, otherHookMarker))
	}
	if err := r.mgr.Stop(e2eTopic, plain.ID); err != nil {
		t.Fatal(err)
	}
	styleRuns, otherRuns := hookRuns(cody.WorkDir, styleHookRan), hookRuns(cody.WorkDir, otherHookRan)
	if styleRuns == 0 || otherRuns == 0 {
		t.Fatalf("control: hook runs style %d, other %d", styleRuns, otherRuns)
	}

	// The seat with a character: the hook is off in its conversation only.
	res, s = r.start(cody.ID)
	r.waitReady(cody.ID, s)
	hello := answerOnce(t, r, cody.ID, "Cody")
	text := sessionText(r, res.SessionID)
	if strings.Contains(text, styleHookMarker) {
		t.Errorf("Li+'s output-style hook context reached the model of a seat that sends its character")
	}
	if !strings.Contains(text, otherHookMarker) {
		t.Errorf("the project's other SessionStart hook did not run for the seat")
	}
	want := "You are Luna, CHARACTER BODY.\n\n\n" + launch.RoomPrompt(launch.MCPKey(cody.ID, e2eTopic))
	exs := r.sessionCalls(res.SessionID)
	i := slices.IndexFunc(exs, func(ex fakeapi.Exchange) bool { return len(carrying(ex.Request, hello.MessageID)) > 0 })
	if i < 0 || !slices.ContainsFunc(exs[i].Request.Messages, func(m fakeapi.Message) bool {
		return m.Role == fakeapi.RoleDeveloper && slices.Contains(m.Texts, want)
	}) {
		t.Errorf("no developer message %q in the model call of the post", want)
	}
	if n := hookRuns(cody.WorkDir, styleHookRan); n != styleRuns {
		t.Errorf("Li+'s output-style hook ran %d more times for the seat with a character", n-styleRuns)
	}
	if n := hookRuns(cody.WorkDir, otherHookRan); n <= otherRuns {
		t.Errorf("the other SessionStart hook did not run for the seat (%d runs)", n)
	}
	// Nothing was written: the hooks file, and the hooks' state and trust
	// in CODEX_HOME (Codex itself notes other things there).
	if after, _ := os.ReadFile(hooksFile); string(after) != string(before) {
		t.Errorf("hooks.json changed:\n%s", after)
	}
	if got := hooksTable(t, home); got != stateBefore {
		t.Errorf("config.toml's [hooks] changed:\n%s\nwas\n%s", got, stateBefore)
	}
}

// inlineDefinitions are a user's developer_instructions with two inline
// characters (#276) and common text around them.
const inlineDefinitions = "COMMON RULES: be brief.\n" +
	"# character_Lin\n" +
	"You are Lin, LIN BODY.\n" +
	"## Detail\n" +
	"```\n# character_Lay\n```\n" +
	"# character_Lay\n" +
	"You are Lay, LAY BODY.\n" +
	"# Shared\n" +
	"SHARED TAIL.\n"

// TestE2ECodexInlineCharacter: in a project without Li+'s style files an
// app-server seat's character is the "# character_Lin" block of the user's
// own developer_instructions (here in CODEX_HOME's config.toml): the real
// Codex 0.169.0's model gets the common text and Lin's block, in place,
// without Lay's, then the room sentence. The preview names the mode; an
// unknown name refuses the start and leaves no conversation.
func TestE2ECodexInlineCharacter(t *testing.T) {
	r := newRig(t, nil)
	home := filepath.Join(t.TempDir(), "codex-home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	userCfg, err := toml.Marshal(map[string]any{"developer_instructions": inlineDefinitions})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), userCfg, 0o600); err != nil {
		t.Fatal(err)
	}
	on := true
	lin := r.codexAccount("lin", "Lin")
	lin.CodexAppServer, lin.Character = &on, "character_Lin"
	r.addAccount(lin)
	env, err := fakeapi.PrepareCodex(fakeapi.CodexSetup{Home: home, WorkDirs: []string{lin.WorkDir}, BaseURL: r.base})
	if err != nil {
		t.Fatal(err)
	}
	r.setEnv(env)

	res, s := r.start(lin.ID)
	if !strings.Contains(res.Preview, "\nconversation: inline: character_Lin") {
		t.Errorf("the preview does not name the inline character:\n%s", res.Preview)
	}
	r.waitReady(lin.ID, s)
	hello := answerOnce(t, r, lin.ID, "Lin")
	selected := "COMMON RULES: be brief.\n# character_Lin\nYou are Lin, LIN BODY.\n## Detail\n```\n# character_Lay\n```\n# Shared\nSHARED TAIL.\n"
	want := selected + "\n\n" + launch.RoomPrompt(launch.MCPKey(lin.ID, e2eTopic))
	exs := r.sessionCalls(res.SessionID)
	i := slices.IndexFunc(exs, func(ex fakeapi.Exchange) bool { return len(carrying(ex.Request, hello.MessageID)) > 0 })
	if i < 0 {
		t.Fatalf("no model call carries %s", hello.MessageID)
	}
	var devs []string
	for _, m := range exs[i].Request.Messages {
		if m.Role == fakeapi.RoleDeveloper {
			devs = append(devs, m.Texts...)
		}
	}
	if !slices.Contains(devs, want) {
		t.Errorf("no developer message\n%q\nin the model call; developer texts:\n%q", want, devs)
	}
	if text := sessionText(r, res.SessionID); strings.Contains(text, "LAY BODY") {
		t.Error("the other character's block reached the model")
	}

	lux := r.codexAccount("lux", "Lux")
	lux.CodexAppServer, lux.Character, lux.WorkDir = &on, "character_Lux", lin.WorkDir
	r.addAccount(lux)
	_, err = r.mgr.Start(e2eTopic, lux.ID, 160, 50)
	if err == nil || !strings.Contains(err.Error(), "no heading # character_Lux") {
		t.Fatalf("an unknown inline character: %v", err)
	}
	if got, _ := r.store.Session(e2eTopic, lux.ID); got != "" {
		t.Errorf("the refused start recorded conversation %q", got)
	}
}
