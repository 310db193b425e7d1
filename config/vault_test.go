package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// These tests run the env field's whole life — typed, sealed, drawn
// masked, settled back — through this system's real vault (testVault:
// DPAPI on Windows, under Wine in make wine; the OS keyring on a private
// Secret Service on Linux).

// newBookVault is newBook with a vault.
func newBookVault(t *testing.T, v Vault) (*Book, string) {
	t.Helper()
	b, work := newBook(t)
	b.vault = v
	return b, work
}

// reopenBook loads b's config.json again into a Book with v: another
// Pullcept run on the same data directory.
func reopenBook(t *testing.T, b *Book, v Vault) *Book {
	t.Helper()
	cfg, _, err := Load(b.dir)
	if err != nil {
		t.Fatal(err)
	}
	return NewBook(b.dir, cfg, v)
}

// opened is OpenEnv or fails t.
func opened(t *testing.T, vars []EnvVar, v Vault) []string {
	t.Helper()
	env, err := OpenEnv(vars, v)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

const token = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzNx4h"

// TestSettleEnvKeepsRowsLeftAlone: typed values are sealed (config.json
// holds no value); the field is drawn masked; drawn back unchanged every
// row keeps its sealed value byte for byte; one row retyped, one removed,
// one added take effect; a renamed row takes what it says (no value moves
// across names).
func TestSettleEnvKeepsRowsLeftAlone(t *testing.T) {
	v := testVault(t)
	b, work := newBookVault(t, v)
	edit := AccountEdit{ID: "claude-1", Kind: "claude_code", Name: "Claude", WorkDir: work, Command: "claude",
		Env: "GH_TOKEN=" + token + "\nLI_PLUS_AGENT_KEY=lin\nINHERITED="}
	first, err := b.Save(edit)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(b.dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, value := range []string{token, "github_pat", `"lin"`} {
		if strings.Contains(string(raw), value) {
			t.Fatalf("config.json holds %q:\n%s", value, raw)
		}
	}
	if n := strings.Count(string(raw), `"sealed"`); n != 2 {
		t.Errorf("config.json has %d sealed values, want 2:\n%s", n, raw)
	}
	drawn, unreadable, err := b.EnvText("claude-1")
	if err != nil || len(unreadable) != 0 || drawn != "GH_TOKEN=github_pat...Nx4h\nLI_PLUS_AGENT_KEY=...\nINHERITED=" {
		t.Fatalf("drawn = %q, %q, %v", drawn, unreadable, err)
	}
	// Another Pullcept on the same directory saves the drawing unchanged
	// through the settle path: the very same sealed values come back.
	b2 := reopenBook(t, b, v)
	edit.Env, edit.Name = drawn, "Claudia"
	again, err := b2.Save(edit)
	if err != nil || !slices.Equal(again.Env, first.Env) {
		t.Fatalf("unchanged field: %+v, %v; want %+v", again.Env, err, first.Env)
	}
	edit.Env = "GH_TOKEN=github_pat_new_value_0000\nLI_PLUS_AGENT_KEY=...\nGH_CONFIG_DIR=C:\\gh\\lin"
	third, err := b2.Save(edit)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"GH_TOKEN=github_pat_new_value_0000", "LI_PLUS_AGENT_KEY=lin", `GH_CONFIG_DIR=C:\gh\lin`}
	if got := opened(t, third.Env, v); !slices.Equal(got, want) {
		t.Errorf("opened = %q, want %q", got, want)
	}
	if third.Env[1] != first.Env[1] {
		t.Errorf("the row left alone was sealed again: %q → %q", first.Env[1].Sealed, third.Env[1].Sealed)
	}
	renamed, err := SettleEnv("OTHER_KEY=...", third.Env, v)
	if err != nil || !slices.Equal(opened(t, renamed, v), []string{"OTHER_KEY=..."}) {
		t.Errorf("renamed row: %+v, %v", renamed, err)
	}
	// A row renamed with the mask drawn for a long value still on it would
	// store the mask and drop the secret: refused, naming the old row.
	drawn, _, rerr := RenderEnv(third.Env, v)
	if rerr != nil {
		t.Fatal(rerr)
	}
	mask := strings.TrimPrefix(strings.Split(drawn, "\n")[0], "GH_TOKEN=")
	if _, err := SettleEnv("GITHUB_TOKEN="+mask, third.Env, v); !errors.Is(err, ErrEnvMaskEdited) || !strings.Contains(err.Error(), "GH_TOKEN") {
		t.Errorf("GH_TOKEN renamed with its mask %q: %v, want ErrEnvMaskEdited naming GH_TOKEN", mask, err)
	}
}

// TestSettleEnvQuotesAndEquals: values with "=" and quotes are stored as
// meant; a lone quote is refused naming the line and the name, never the
// value; a value stored with a stray quote keeps it while its row is left
// alone, and its mask edited is refused (the incident of #165).
func TestSettleEnvQuotesAndEquals(t *testing.T) {
	v := testVault(t)
	text := "A=b=c\nQ=\"x=y 'z'\"\nS='say \"hi\"'\nT=\"abc'\"\nE=\"\"\nW = spaced value  "
	vars, err := SettleEnv(text, nil, v)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"A=b=c", "Q=x=y 'z'", `S=say "hi"`, "T=abc'", "W=spaced value"}
	if got := opened(t, vars, v); !slices.Equal(got, want) {
		t.Errorf("opened = %q, want %q", got, want)
	}
	if vars[4] != (EnvVar{Name: "E"}) {
		t.Errorf(`E="" = %+v, want a name-only variable`, vars[4])
	}
	for _, bad := range []string{"GH_TOKEN=\"ghp_1234567890", "A=ok\nGH_TOKEN=ghp_1234567890'", "GH_TOKEN=\"ghp_1234567890'"} {
		_, err := SettleEnv(bad, nil, v)
		if !errors.Is(err, ErrEnvQuote) || !strings.Contains(err.Error(), "GH_TOKEN") || strings.Contains(err.Error(), "ghp_") {
			t.Errorf("SettleEnv(%q) = %v; want ErrEnvQuote naming GH_TOKEN only", bad, err)
		}
	}
	// What an earlier app stored: the token with its leading quote.
	quoted, err := v.Seal(`"` + token)
	if err != nil {
		t.Fatal(err)
	}
	stored := []EnvVar{{Name: "GH_TOKEN", Sealed: quoted}}
	drawn, _, err := RenderEnv(stored, v)
	if err != nil || drawn != `GH_TOKEN="github_pa...Nx4h` {
		t.Fatalf("drawn = %q, %v", drawn, err)
	}
	if kept, err := SettleEnv(drawn, stored, v); err != nil || !slices.Equal(kept, stored) {
		t.Fatalf("left alone: %+v, %v", kept, err)
	}
	for _, edited := range []string{"GH_TOKEN=github_pa...Nx4h", `GH_TOKEN="github_pa...Nx4h"`, "gh_token=github_pa_1...Nx4h"} {
		_, err := SettleEnv(edited, stored, v)
		if !errors.Is(err, ErrEnvMaskEdited) || !strings.Contains(err.Error(), "line 1") || strings.Contains(err.Error(), "github_pa") {
			t.Errorf("SettleEnv(%q) = %v; want ErrEnvMaskEdited naming line 1", edited, err)
		}
	}
	// The real value pasted again goes through, without the quote; a new
	// variable shaped like a mask, and values holding "...", are values.
	fixed, err := SettleEnv("GH_TOKEN="+token+"\nNEW_KEY=github_pat...Nx4h\nOPTS=--include=src/...", stored, v)
	if err != nil {
		t.Fatal(err)
	}
	if got := opened(t, fixed, v); !slices.Equal(got, []string{"GH_TOKEN=" + token, "NEW_KEY=github_pat...Nx4h", "OPTS=--include=src/..."}) {
		t.Errorf("opened = %q", got)
	}
}

// TestEnvUnopenable: damaged ciphertexts and values sealed another way are
// drawn as EnvUnreadable and named; left alone they are kept byte for
// byte; the launch is refused naming the variable; the marker edited is
// refused; a deleted row is gone.
func TestEnvUnopenable(t *testing.T) {
	v := testVault(t)
	good, err := v.Seal("fine-value")
	if err != nil {
		t.Fatal(err)
	}
	flipped := []byte(good)
	flipped[len(flipped)-3] ^= 0x01
	damaged := []EnvVar{
		{Name: "TRUNCATED", Sealed: good[:len(good)-6]},
		{Name: "FLIPPED", Sealed: string(flipped)},
		{Name: "NOT_HEX", Sealed: "dpapi:zz"},
		{Name: "NOT_B64", Sealed: "keyring:0011aabb:@@@"},
		{Name: "OTHER_KEY", Sealed: "keyring:00000000:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
		{Name: "GOOD", Sealed: good},
	}
	drawn, unreadable, err := RenderEnv(damaged, v)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"TRUNCATED", "FLIPPED", "NOT_HEX", "NOT_B64", "OTHER_KEY"}; !slices.Equal(unreadable, want) {
		t.Errorf("unreadable = %q, want %q", unreadable, want)
	}
	if strings.Count(drawn, EnvUnreadable) != 5 || !strings.HasSuffix(drawn, "GOOD=fi...ue") {
		t.Errorf("drawn = %q", drawn)
	}
	kept, err := SettleEnv(drawn, damaged, v)
	if err != nil || !slices.Equal(kept, damaged) {
		t.Fatalf("left alone: %+v, %v", kept, err)
	}
	for _, ev := range damaged[:5] {
		_, err := OpenEnv([]EnvVar{ev}, v)
		if !errors.Is(err, ErrEnvUnopenable) || !strings.Contains(err.Error(), ev.Name) {
			t.Errorf("OpenEnv(%s) = %v; want ErrEnvUnopenable naming it", ev.Name, err)
		}
		t.Logf("%s: %v", ev.Name, err)
	}
	if _, err := SettleEnv(`TRUNCATED="`+EnvUnreadable+`"`, damaged, v); !errors.Is(err, ErrEnvMaskEdited) {
		t.Errorf("the marker edited: %v", err)
	}
	if rest, err := SettleEnv("GOOD=fi...ue", damaged, v); err != nil || !slices.Equal(rest, damaged[5:]) {
		t.Errorf("rows deleted: %+v, %v", rest, err)
	}
}

// TestSettleEnvTenThousandLines: 10 000 variables are sealed, drawn and
// settled back unchanged, saved and loaded, and all open for a launch.
func TestSettleEnvTenThousandLines(t *testing.T) {
	v := testVault(t)
	b, work := newBookVault(t, v)
	var lines []string
	for i := range 10000 {
		lines = append(lines, fmt.Sprintf("VAR_%05d='value-%d=\"q\"'", i, i))
	}
	start := time.Now()
	a, err := b.Save(AccountEdit{ID: "claude-1", Kind: "claude_code", Name: "Claude", WorkDir: work, Command: "claude",
		Env: strings.Join(lines, "\n")})
	if err != nil {
		t.Fatal(err)
	}
	sealedIn := time.Since(start)
	start = time.Now()
	drawn, _, err := b.EnvText("claude-1")
	if err != nil {
		t.Fatal(err)
	}
	drawnIn := time.Since(start)
	b2 := reopenBook(t, b, v)
	again, err := b2.Save(AccountEdit{ID: "claude-1", Kind: "claude_code", Name: "Claude", WorkDir: work, Command: "claude", Env: drawn})
	if err != nil || !slices.Equal(again.Env, a.Env) {
		t.Fatalf("settled back: %d vars, %v", len(again.Env), err)
	}
	env := opened(t, again.Env, v)
	if len(env) != 10000 || env[9999] != `VAR_09999=value-9999="q"` {
		t.Fatalf("opened %d, last %q", len(env), env[len(env)-1])
	}
	t.Logf("10 000 values: sealed and saved in %v, drawn in %v", sealedIn.Round(time.Millisecond), drawnIn.Round(time.Millisecond))
}

// TestBookSaveKeepEnvNeedsNoVault: a save that keeps the env opens and
// seals nothing (no vault at all here), and the sealed values — even
// damaged ones — are written back byte for byte; a typed value with no
// vault is refused and nothing is written.
func TestBookSaveKeepEnvNeedsNoVault(t *testing.T) {
	t.Parallel()
	work := absDir(t)
	dir := writeConfig(t, `{"accounts":[{"id":"c","name":"C","kind":"claude_code","cwd":`+quote(work)+`,"command":"claude",
		"env":[{"name":"GH_TOKEN","sealed":"keyring:0011aabb:garbage"},{"name":"X","sealed":"dpapi:00ff"},{"name":"N"}]}]}`)
	cfg, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBook(dir, cfg, nil)
	before, _ := b.Account("c")
	a, err := b.Save(AccountEdit{ID: "c", Kind: "claude_code", Name: "Renamed", WorkDir: work, Command: "claude", KeepEnv: true})
	if err != nil || !slices.Equal(a.Env, before.Env) {
		t.Fatalf("keep env: %+v, %v", a.Env, err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	if _, err := b.Save(AccountEdit{ID: "c", Kind: "claude_code", Name: "C", WorkDir: work, Command: "claude", Env: "GH_TOKEN=new-value-1"}); !errors.Is(err, ErrNoSecretStore) {
		t.Fatalf("typed value without a vault: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, FileName)); string(after) != string(raw) {
		t.Fatal("a refused save wrote config.json")
	}
	// The preview's draft carries names only and opens nothing.
	d, err := b.Draft(AccountEdit{ID: "c", Kind: "claude_code", Name: "C", WorkDir: work, Command: "claude", Env: "GH_TOKEN=github_pa...Nx4h\nNEW=\"x"})
	if err != nil || !slices.Equal(d.Env, []EnvVar{{Name: "GH_TOKEN"}, {Name: "NEW"}}) {
		t.Fatalf("draft = %+v, %v", d.Env, err)
	}
	if _, err := b.Draft(AccountEdit{ID: "c", Kind: "claude_code", Name: "C", WorkDir: work, Command: "claude", Env: "PULLCEPT_ROOM_TOKEN=x"}); !errors.Is(err, ErrEnvReserved) {
		t.Fatalf("draft with a reserved name: %v", err)
	}
}

// TestClearValueSealedOnSettle: a value written in the clear by hand is
// used as it is, kept by a save that leaves the env field alone (no vault
// call), and sealed once the field is saved changed — its row left alone.
func TestClearValueSealedOnSettle(t *testing.T) {
	v := testVault(t)
	work := absDir(t)
	dir := writeConfig(t, `{"accounts":[{"id":"c","name":"C","kind":"claude_code","cwd":`+quote(work)+`,"command":"claude",
		"env":[{"name":"GH_TOKEN","value":"plain-token-12345"}]}]}`)
	cfg, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBook(dir, cfg, v)
	edit := AccountEdit{ID: "c", Kind: "claude_code", Name: "C", WorkDir: work, Command: "claude", KeepEnv: true}
	if _, err := b.Save(edit); err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(filepath.Join(dir, FileName)); !strings.Contains(string(raw), "plain-token-12345") {
		t.Fatal("a save that kept the env rewrote the hand-written value")
	}
	drawn, _, err := b.EnvText("c")
	if err != nil || drawn != "GH_TOKEN=plai...2345" {
		t.Fatalf("drawn = %q, %v", drawn, err)
	}
	edit.KeepEnv, edit.Env = false, drawn+"\nNEW=1"
	a, err := b.Save(edit)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(filepath.Join(dir, FileName)); strings.Contains(string(raw), "plain-token-12345") || a.Env[0].Sealed == "" {
		t.Fatalf("the value is still in the clear:\n%s", raw)
	}
	if got := opened(t, a.Env, v); !slices.Equal(got, []string{"GH_TOKEN=plain-token-12345", "NEW=1"}) {
		t.Errorf("opened = %q", got)
	}
}
