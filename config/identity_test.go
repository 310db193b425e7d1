package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveRefusesATakenName: no two accounts go by one display name
// (nickname, else name), compared case-insensitively; the refusal names the
// account that has it and saves nothing. An account keeps its own name
// through any edit, and a name a nickname hides is free (it is not what
// the room calls that account).
func TestSaveRefusesATakenName(t *testing.T) {
	t.Parallel()
	b, work := newBook(t)
	seat := func(id, name, nick string) AccountEdit {
		return AccountEdit{ID: id, Kind: "claude_code", Name: name, Nickname: nick, WorkDir: work, Command: "claude"}
	}
	lin, err := b.Save(seat("", "Claude Lin", "Lin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		e    AccountEdit
		want string
	}{
		{seat("", "claude", ""), `"claude": name is already another account's: "Claude" (claude_code, id claude-1)`},
		{seat("", "Someone", " LIN "), `"LIN": name is already another account's: "Lin" (claude_code, id ` + lin.ID + `)`},
		{seat("claude-1", "Claudia", "alice"), `"alice": name is already another account's: "Alice" (admin, id admin)`},
		{AccountEdit{ID: "admin", Kind: "admin", Name: "Lin"}, `"Lin": name is already another account's: "Lin" (claude_code, id ` + lin.ID + `)`},
	} {
		_, err := b.Save(tc.e)
		if !errors.Is(err, ErrNameTaken) || err.Error() != tc.want {
			t.Errorf("save %+v: %v\nwant %s", tc.e, err, tc.want)
		}
	}
	if n := len(b.All()); n != 3 {
		t.Fatalf("%d accounts after refusals", n)
	}
	if a, _ := b.Account("claude-1"); a.Name != "Claude" {
		t.Fatalf("a refused save changed the account: %+v", a)
	}
	for _, e := range []AccountEdit{
		seat("claude-1", "CLAUDE", ""),            // its own name in another case
		seat("", "Claude Lin", ""),                // the name Lin's nickname hides
		seat(lin.ID, "Claude Lin", "Linnea"),      // a new nickname
		{ID: "admin", Kind: "admin", Name: "Lin"}, // Lin is Linnea now
	} {
		if _, err := b.Save(e); err != nil {
			t.Errorf("save %+v: %v", e, err)
		}
	}
}

// TestSaveRefusesNamesTheRoomCannotSeat: a name or nickname with a control,
// bidi or line-separator character, over MaxNameRunes characters, or
// Pullcept's own name is refused, naming the field.
func TestSaveRefusesNamesTheRoomCannotSeat(t *testing.T) {
	t.Parallel()
	b, work := newBook(t)
	for _, tc := range []struct{ name, nick, field string }{
		{"Clau\nde", "", "name"},
		{"Claude", "Lin\u202e", "nickname"},
		{"Claude", "a\u2028b", "nickname"},
		{strings.Repeat("あ", MaxNameRunes+1), "", "name"},
		{"pullcept", "", ""},
		{"Claude", " PULLCEPT ", ""},
	} {
		_, err := b.Save(AccountEdit{ID: "claude-1", Kind: "claude_code", Name: tc.name, Nickname: tc.nick, WorkDir: work, Command: "claude"})
		if !errors.Is(err, ErrBadName) || !strings.HasPrefix(err.Error(), tc.field) {
			t.Errorf("name %q nickname %q: %v", tc.name, tc.nick, err)
		}
	}
	if _, err := b.Save(AccountEdit{ID: "claude-1", Kind: "claude_code", Name: strings.Repeat("あ", MaxNameRunes), WorkDir: work, Command: "claude"}); err != nil {
		t.Fatalf("a name of MaxNameRunes: %v", err)
	}
}

// TestKindChangeLeavesTheOldKind: a kind change drops what only the old
// kind used and the editor does not show (Codex's screen mode, an MCP
// account's server); the admin stays admin and no account becomes one.
func TestKindChangeLeavesTheOldKind(t *testing.T) {
	t.Parallel()
	b, work := newBook(t)
	b.cfg.Accounts = append(b.cfg.Accounts,
		Account{ID: "cx", Name: "Codex", Kind: KindCodexCLI, WorkDir: work, Command: "codex", ScreenMode: ScreenAlt},
		Account{ID: "gh", Name: "github", Kind: KindMCP, Server: "github-webhook-mcp"})
	if _, err := b.Save(AccountEdit{ID: "cx", Kind: "codex_cli", Name: "Codex", WorkDir: work, Command: "codex"}); err != nil {
		t.Fatal(err)
	}
	if a, _ := b.Account("cx"); a.ScreenMode != ScreenAlt {
		t.Fatalf("same kind: screen mode %q", a.ScreenMode)
	}
	a, err := b.Save(AccountEdit{ID: "cx", Kind: "claude_code", Name: "Codex", WorkDir: work, Command: "claude"})
	if err != nil || a.ScreenMode != ScreenInline {
		t.Fatalf("codex → claude: %+v %v", a, err)
	}
	if a, err := b.Save(AccountEdit{ID: "gh", Kind: "cli", Name: "github", WorkDir: work, Command: "gh"}); err != nil || a.Server != "" {
		t.Fatalf("mcp → cli: %+v %v", a, err)
	}
	for _, e := range []AccountEdit{
		{ID: "admin", Kind: "cli", Name: "Alice", WorkDir: work, Command: "sh"},
		{ID: "claude-1", Kind: "admin", Name: "Claude"},
	} {
		if _, err := b.Save(e); !errors.Is(err, ErrKindChange) {
			t.Errorf("save %s as %s: %v", e.ID, e.Kind, err)
		}
	}
}

// TestAccountIdentity is what the room calls an account: the display name,
// the original name only when a nickname hides it, a copy of the hue.
func TestAccountIdentity(t *testing.T) {
	t.Parallel()
	b, work := newBook(t)
	h := 90
	a, err := b.Save(AccountEdit{Kind: "claude_code", Name: " Claude Lin ", Nickname: "Lin", Hue: &h, WorkDir: work, Command: "claude"})
	if err != nil {
		t.Fatal(err)
	}
	name, full, hue, ok := b.AccountIdentity(a.ID)
	if !ok || name != "Lin" || full != "Claude Lin" || hue == nil || *hue != 90 {
		t.Fatalf("identity = %q %q %v %v", name, full, hue, ok)
	}
	*hue = 1
	if _, _, again, _ := b.AccountIdentity(a.ID); *again != 90 {
		t.Fatal("the hue is shared with the book")
	}
	if name, full, hue, ok := b.AccountIdentity("claude-1"); !ok || name != "Claude" || full != "" || hue != nil {
		t.Fatalf("identity without nickname = %q %q %v %v", name, full, hue, ok)
	}
	if _, _, _, ok := b.AccountIdentity("nobody"); ok {
		t.Fatal("an unknown account has an identity")
	}
}

// TestLoadWarnsOfSharedNames: a file that already holds two accounts going
// by one name loads, with a warning naming both; the other accounts still
// save, and the next save of either is refused until one is renamed.
func TestLoadWarnsOfSharedNames(t *testing.T) {
	t.Parallel()
	work := absDir(t)
	dir := writeConfig(t, `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"},
		{"id":"c1","name":"Claudia","kind":"claude_code","cwd":`+quote(work)+`,"command":"claude"},
		{"id":"c2","name":"Claude","nickname":"claudia","kind":"claude_code","cwd":`+quote(work)+`,"command":"claude"}]}`)
	cfg, warnings, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, FileName) + `: accounts c1 and c2 are both called "claudia": rename one in the editor (@claudia addresses both)`
	if len(warnings) != 1 || warnings[0] != want {
		t.Fatalf("warnings = %q", warnings)
	}
	cfg.Accounts[0].Name = "Alicia"
	if err := cfg.Save(dir); err != nil {
		t.Fatalf("saving the file with both: %v", err)
	}
	if err := cfg.checkIdentity(cfg.Accounts[1]); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("the next save of c1: %v", err)
	}
}

// TestLookalikeNamesAreOneName: names are compared after NFKC and case
// folding (a full-width Ｓ, a decomposed é, ß are the same letters to a
// reader), and a name holding an invisible character (zero-width, joiner,
// Hangul filler) is refused — two accounts that draw alike, or "Pullcept"
// with a zero-width space, could pass for each other (breaker review).
func TestLookalikeNamesAreOneName(t *testing.T) {
	t.Parallel()
	b, work := newBook(t)
	seat := func(name string) AccountEdit {
		return AccountEdit{Kind: "claude_code", Name: name, WorkDir: work, Command: "claude"}
	}
	for _, n := range []string{"Shelly", "Zoé", "Strauß"} {
		if _, err := b.Save(seat(n)); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"Ｓhelly", "ｓｈｅｌｌｙ", "Zoe\u0301", "STRAUSS", "Ｐullcept"} {
		if _, err := b.Save(seat(n)); !errors.Is(err, ErrNameTaken) && !errors.Is(err, ErrBadName) {
			t.Errorf("%q beside Shelly, Zoé, Strauß and Pullcept: %v, want refused", n, err)
		}
	}
	for _, n := range []string{"Shelly\u200b", "She\u200dlly", "Lin\u3164", "\u200b", "Pullcept\u200b", "A\u2060B"} {
		if _, err := b.Save(seat(n)); !errors.Is(err, ErrBadName) {
			t.Errorf("%q: %v, want ErrBadName (an invisible character)", n, err)
		}
	}
	if _, err := b.Save(seat("Shellie")); err != nil {
		t.Errorf("a different name: %v", err)
	}
}
