package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNewMCPServerName: spaces become "-", nothing but spaces is
// "mcp-server", and a name in use — an entry, an mcp account's server, the
// name of an "mcp-<name>" id — is numbered -2, -3…, staying an account
// name.
func TestNewMCPServerName(t *testing.T) {
	t.Parallel()
	accounts := []Account{
		{ID: "gh", Name: "GitHub", Kind: KindMCP, Server: "GitHub-hooks"},
		{ID: "mcp-Notes", Name: "Notes", Kind: KindMCP, Server: "other"},
		{ID: "cli-1", Name: "x", Kind: KindCLI, Server: "Tools"}, // not an mcp account: its server is free
	}
	entries := []string{"Weather", "Weather-2"}
	for in, want := range map[string]string{
		"  My  server\t": "My-server",
		"   ":            "mcp-server",
		"":               "mcp-server",
		"GitHub hooks":   "GitHub-hooks-2",
		"Notes":          "Notes-2",
		"Weather":        "Weather-3",
		"weather":        "weather", // names are JSON keys: case counts
		"Tools":          "Tools",
	} {
		if got := NewMCPServerName(in, entries, accounts); got != want {
			t.Errorf("NewMCPServerName(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("é", MaxNameRunes)
	got := NewMCPServerName(long, []string{long}, nil)
	if got != strings.Repeat("é", MaxNameRunes-2)+"-2" || CheckMCPServerName(got) != nil {
		t.Errorf("a taken %d-character name became %q", MaxNameRunes, got)
	}
}

// TestAddMCPAccounts: every entry without an mcp account whose server it
// is gets one (id mcp-<entry>, named after it, no hue); existing accounts
// keep their names and hues; an entry whose id is taken or whose name no
// account may carry gets none, with a warning; a second call adds nothing.
func TestAddMCPAccounts(t *testing.T) {
	t.Parallel()
	hue := 120
	c := &Config{Accounts: []Account{
		{ID: "admin", Name: "Alice", Kind: KindAdmin},
		{ID: "k", Name: "Known hooks", Kind: KindMCP, Server: "known", Hue: &hue},
		{ID: "mcp-taken", Name: "Taken", Kind: KindMCP, Server: "elsewhere"},
	}}
	servers := []MCPServer{
		{Name: "github-webhook-mcp", Command: "node"}, {Name: "known"}, {Name: "taken"},
		{Name: "bad\u200bname"}, {Name: "pullcept"}, {Name: "odd", Err: ErrBadFile},
	}
	added, warnings := c.AddMCPAccounts(servers)
	if !slices.Equal(added, []string{"mcp-github-webhook-mcp", "mcp-odd"}) {
		t.Fatalf("added %q", added)
	}
	a, _ := c.Account("mcp-github-webhook-mcp")
	if a.Kind != KindMCP || a.Server != "github-webhook-mcp" || a.Name != "github-webhook-mcp" || a.Hue != nil {
		t.Errorf("made %+v", a)
	}
	if k, _ := c.Account("k"); k.Name != "Known hooks" || k.Hue == nil || *k.Hue != 120 {
		t.Errorf("existing mcp account changed: %+v", k)
	}
	joined := strings.Join(warnings, "\n")
	for _, want := range []string{`"taken" gets no account: its id mcp-taken`, `"bad\u200bname" gets no account`, `"pullcept" gets no account`} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	// Making an account is the normal case, said nowhere (every start
	// would repeat it until config.json is saved).
	if strings.Contains(joined, "mcp-github-webhook-mcp") {
		t.Errorf("a made account was warned about:\n%s", joined)
	}
	if again, _ := c.AddMCPAccounts(servers); again != nil {
		t.Errorf("second call added %q", again)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("accounts made do not validate: %v", err)
	}
}

// TestLoadAddsMCPAccounts: Load makes the accounts of mcp-servers.json's
// entries in memory (same ids every time, written on the next save, never
// by Load); a bad mcp-servers.json is a warning, not an error, and is left
// as it is.
func TestLoadAddsMCPAccounts(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `{"accounts":[{"id":"admin","name":"Alice","kind":"admin","hue":10}]}`)
	writeMCPServers(t, dir, `{"mcpServers": {"github-webhook-mcp": {"command": "node", "args": ["/b.mjs"]}}}`)
	before, _ := os.ReadFile(filepath.Join(dir, FileName))
	c, warnings, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := c.Account("mcp-github-webhook-mcp"); !ok || a.Kind != KindMCP || a.Server != "github-webhook-mcp" {
		t.Fatalf("no mcp account after Load: %+v (warnings %q)", c.Accounts, warnings)
	}
	if admin, _ := c.Admin(); admin.Name != "Alice" || *admin.Hue != 10 {
		t.Errorf("admin changed: %+v", admin)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, FileName)); string(after) != string(before) {
		t.Fatal("Load wrote config.json")
	}
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	c, warnings, err = Load(dir)
	if err != nil || len(warnings) != 0 || len(c.Accounts) != 2 {
		t.Fatalf("after a save: %d accounts, warnings %q, %v", len(c.Accounts), warnings, err)
	}

	bad := writeConfig(t, `{"accounts":[]}`)
	path := writeMCPServers(t, bad, `{"mcpServers": [`)
	c, warnings, err = Load(bad)
	if err != nil || len(c.Accounts) != 1 {
		t.Fatalf("bad mcp-servers.json: %+v, %v", c.Accounts, err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], MCPServersFileName) {
		t.Errorf("warnings %q, want one naming %s", warnings, MCPServersFileName)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"mcpServers": [` {
		t.Error("Load touched the bad mcp-servers.json")
	}
}

// TestBookSavesAnMCPAccountsServer: AccountEdit.Server sets an mcp
// account's entry; "" keeps the stored one; other kinds ignore it.
func TestBookSavesAnMCPAccountsServer(t *testing.T) {
	t.Parallel()
	b, work := newBook(t)
	a, err := b.Save(AccountEdit{Kind: "mcp", Name: "Hooks", Server: "Hooks"})
	if err != nil || a.Server != "Hooks" {
		t.Fatalf("new mcp account: %+v, %v", a, err)
	}
	if a, err = b.Save(AccountEdit{ID: a.ID, Kind: "mcp", Name: "Hooks 2"}); err != nil || a.Server != "Hooks" || a.Name != "Hooks 2" {
		t.Fatalf("rename kept no server: %+v, %v", a, err)
	}
	if c, err := b.Save(AccountEdit{Kind: "cli", Name: "Tool", WorkDir: work, Command: "sh", Server: "x"}); err != nil || c.Server != "" {
		t.Fatalf("a cli account took a server: %+v, %v", c, err)
	}
}

// TestDefaultWebhookEntry: the default entry exists only for a bridge
// script find really found (an absolute path to a file that is there); it
// is written only into a missing file.
func TestDefaultWebhookEntry(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "webhook-bridge.mjs")
	if err := os.WriteFile(script, []byte("// bridge\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	found := func(p string, ok bool) func() (string, bool) { return func() (string, bool) { return p, ok } }
	for name, find := range map[string]func() (string, bool){
		"nil": nil, "not found": found(script, false), "relative": found("webhook-bridge.mjs", true),
		"missing": found(script+".gone", true), "a directory": found(filepath.Dir(script), true), "empty": found("", true),
	} {
		if e, ok := DefaultWebhookEntry(find); ok {
			t.Errorf("%s: made %+v", name, e)
		}
	}
	e, ok := DefaultWebhookEntry(found(script, true))
	if !ok || e.Name != WebhookServerName || e.Command != "node" || !slices.Equal(e.Args, []string{script}) || e.Env != nil {
		t.Fatalf("default entry %+v, %v", e, ok)
	}

	dir := t.TempDir()
	s := NewMCPServers(dir)
	if wrote, err := s.WriteDefault(found(script+".gone", true)); wrote || err != nil {
		t.Fatalf("WriteDefault without a bridge: %v, %v", wrote, err)
	}
	if ok, _ := s.Exists(); ok {
		t.Fatal("WriteDefault without a bridge made the file")
	}
	if wrote, err := s.WriteDefault(found(script, true)); !wrote || err != nil {
		t.Fatalf("WriteDefault: %v, %v", wrote, err)
	}
	if got, err := s.List(); err != nil || len(got) != 1 || got[0].Name != WebhookServerName || !slices.Equal(got[0].Args, []string{script}) {
		t.Fatalf("written default: %+v, %v", got, err)
	}
	if err := s.RemoveServer(WebhookServerName); err != nil {
		t.Fatal(err)
	}
	if wrote, err := s.WriteDefault(found(script, true)); wrote || err != nil {
		t.Fatalf("WriteDefault into a file that exists: %v, %v", wrote, err)
	}
	if got, _ := s.List(); len(got) != 0 {
		t.Errorf("a removed default came back: %+v", got)
	}
}

// TestMCPEntryNamedLikeTheHuman (issue 32): an mcp-servers.json entry is
// named like an account the way accounts are compared (case and width
// folded) — the human's name or nickname, or another account's name —
// gets no account, with a warning naming the file and the key; the file
// keeps every byte and the other entries get their accounts. Before, only
// the id and Pullcept's own name were checked: a server named "alice"
// spoke under the human's name.
func TestMCPEntryNamedLikeTheHuman(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `{"accounts":[{"id":"admin","name":"Alice","nickname":"Al","kind":"admin"},`+
		`{"id":"lin","name":"Lin","kind":"claude_code","command":"claude","cwd":`+quote(absDir(t))+`}]}`)
	file := `{"mcpServers": {"alice": {"command": "a"}, "ＡＬ": {"command": "b"}, "LIN": {"command": "c"},` +
		` "good": {"command": "d", "x-kept": 1}}, "other": true}`
	path := writeMCPServers(t, dir, file)
	c, warnings, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var mcp []string
	for _, a := range c.Accounts {
		if a.Kind == KindMCP {
			mcp = append(mcp, a.ID)
		}
	}
	if !slices.Equal(mcp, []string{"mcp-good"}) {
		t.Errorf("mcp accounts %q, want only mcp-good", mcp)
	}
	joined := strings.Join(warnings, "\n")
	for _, want := range []string{
		MCPServersFileName + `: server "alice" gets no account`, `"Alice", the name of "Al" (admin, id admin)`,
		MCPServersFileName + `: server "ＡＬ" gets no account`, `"Al" (admin, id admin)`,
		MCPServersFileName + `: server "LIN" gets no account`, `"Lin" (claude_code, id lin)`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings lack %q:\n%s", want, joined)
		}
	}
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != file {
		t.Errorf("mcp-servers.json changed:\n%s", b)
	}
	// The editor's path too: an mcp account may not take the human's name
	// while a nickname hides it.
	b, _ := newBook(t)
	if _, err := b.Save(AccountEdit{ID: "admin", Kind: "admin", Name: "Alice", Nickname: "Al"}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Save(AccountEdit{Kind: "mcp", Name: "alice", Server: "alice"}); !errors.Is(err, ErrNameTaken) {
		t.Errorf("an mcp account named like the human's name: %v, want ErrNameTaken", err)
	}
}

// TestMCPEntryNamedLikeTheHumanWithInvisibleMarks: characters that draw
// nothing yet are neither format (Cf) nor fillers — a variation selector,
// the combining grapheme joiner, Khmer's inherent vowels, Mongolian free
// variation selectors — or a braille blank at the end do not make a name
// another: "Alice\uFE0F" is drawn "Alice" and gets no account beside the
// human Alice (breaker review of issue 32).
func TestMCPEntryNamedLikeTheHumanWithInvisibleMarks(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"}]}`)
	names := []string{"Alice\uFE0F", "Al\u034Fice", "Alice\U000E0100", "Al\u17B4ice", "Alice\u180B", "Alice\u2800"}
	var entries []string
	for _, n := range names {
		entries = append(entries, quote(n)+`: {"command": "x"}`)
	}
	writeMCPServers(t, dir, `{"mcpServers": {`+strings.Join(entries, ", ")+`}}`)
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range c.Accounts {
		if a.Kind == KindMCP {
			t.Errorf("server %q got an account beside the human Alice", a.Name)
		}
	}
}
