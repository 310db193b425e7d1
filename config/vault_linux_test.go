package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// testVault is this system's vault for a test: on Linux the keyring vault
// on a private Secret Service (gnome-keyring on its own D-Bus, unlocked as a
// desktop login unlocks it). Tests that use it cannot run in parallel.
func testVault(t *testing.T) Vault {
	t.Helper()
	testkit.StartSecretService(t, true)
	return SystemVault()
}

// TestKeyringVaultRefusesWithAReason: a keyring that refuses (gnome-keyring
// with no unlocked login keyring and no prompter, as on a headless box) and
// no Secret Service at all are each a clear refusal that says what to do;
// nothing is written, and a save that keeps the stored variables still
// goes through.
func TestKeyringVaultRefusesWithAReason(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T)
		why   string
	}{
		{"locked keyring", func(t *testing.T) { testkit.StartSecretService(t, false) }, "unlock"},
		{"no secret service", func(t *testing.T) {
			s := testkit.StartSecretService(t, true)
			s.Stop()
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.setup(t)
			b, work := newBookVault(t, SystemVault())
			before, err := os.ReadFile(filepath.Join(b.dir, FileName))
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.Save(AccountEdit{ID: "claude-1", Kind: "claude_code", Name: "Claude", WorkDir: work, Command: "claude",
				Env: "GH_TOKEN=ghp_secret_value_123"})
			if !errors.Is(err, ErrNoSecretStore) || !strings.Contains(err.Error(), "GH_TOKEN") ||
				!strings.Contains(err.Error(), "Secret Service") || !strings.Contains(err.Error(), tc.why) ||
				strings.Contains(err.Error(), "ghp_secret") {
				t.Fatalf("save with a value: %v; want ErrNoSecretStore naming GH_TOKEN and what to do", err)
			}
			t.Logf("refusal: %v", err)
			after, err := os.ReadFile(filepath.Join(b.dir, FileName))
			if err != nil || string(after) != string(before) {
				t.Fatalf("a refused save changed config.json (%v)", err)
			}
			if _, err := b.Save(AccountEdit{ID: "claude-1", Kind: "claude_code", Name: "Renamed", WorkDir: work, Command: "claude", KeepEnv: true}); err != nil {
				t.Fatalf("a save keeping the env needs no keyring: %v", err)
			}
		})
	}
}

// TestKeyringVaultLockedThenUnlocked: values saved while the keyring was
// open; a fresh Pullcept (a new vault) finds it locked: the field cannot be
// drawn, launches are refused, saving other fields keeps every sealed value
// byte for byte; unlocked again, everything opens as it was.
func TestKeyringVaultLockedThenUnlocked(t *testing.T) {
	ss := testkit.StartSecretService(t, true)
	b, work := newBookVault(t, SystemVault())
	edit := AccountEdit{ID: "claude-1", Kind: "claude_code", Name: "Claude", WorkDir: work, Command: "claude",
		Env: "GH_TOKEN=ghp_secret_value_123\nCLAUDE_CONFIG_DIR=/home/u/.claude-b"}
	saved, err := b.Save(edit)
	if err != nil {
		t.Fatal(err)
	}
	ss.Lock(t)
	b2 := reopenBook(t, b, SystemVault())
	if _, _, err := b2.EnvText("claude-1"); !errors.Is(err, ErrNoSecretStore) {
		t.Fatalf("EnvText with the keyring locked: %v", err)
	}
	a, _ := b2.Account("claude-1")
	if _, err := b2.OpenEnv(a); !errors.Is(err, ErrNoSecretStore) || !strings.Contains(err.Error(), "GH_TOKEN") {
		t.Fatalf("OpenEnv with the keyring locked: %v", err)
	}
	edit.Name, edit.Env, edit.KeepEnv = "Claudia", "", true
	if _, err := b2.Save(edit); err != nil {
		t.Fatalf("save keeping the env: %v", err)
	}
	if a, _ := b2.Account("claude-1"); !slices.Equal(a.Env, saved.Env) {
		t.Fatalf("env after a locked save = %+v, want %+v", a.Env, saved.Env)
	}
	ss.Unlock(t)
	text, _, err := b2.EnvText("claude-1")
	if want := "GH_TOKEN=" + MaskValue("ghp_secret_value_123") + "\nCLAUDE_CONFIG_DIR=" + MaskValue("/home/u/.claude-b"); err != nil || text != want {
		t.Fatalf("EnvText after unlock = %q, %v", text, err)
	}
	a, _ = b2.Account("claude-1")
	if env, err := b2.OpenEnv(a); err != nil || env[0] != "GH_TOKEN=ghp_secret_value_123" {
		t.Fatalf("OpenEnv after unlock = %q, %v", env, err)
	}
}

// TestKeyringVaultOneKey: the keyring holds one pullcept key, made on the
// first seal and shared by every vault (every Pullcept of this user); a key
// removed from the keyring leaves the values unopenable with the reason,
// and the next seal makes a new key whose values are told apart.
func TestKeyringVaultOneKey(t *testing.T) {
	testkit.StartSecretService(t, true)
	a, b := SystemVault(), SystemVault()
	if _, err := keyring.Get(keyringService, keyringUser); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("a key before any seal: %v", err)
	}
	sealed, err := a.Seal("one")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b.Open(sealed); err != nil || got != "one" {
		t.Fatalf("another vault opens %q, %v", got, err)
	}
	stored, err := keyring.Get(keyringService, keyringUser)
	if err != nil || len(stored) < 40 || strings.Contains(sealed, stored) {
		t.Fatalf("key in the keyring: %d characters, %v", len(stored), err)
	}
	if err := keyring.Delete(keyringService, keyringUser); err != nil {
		t.Fatal(err)
	}
	c := SystemVault()
	if _, err := c.Open(sealed); !errors.Is(err, ErrEnvUnopenable) || !strings.Contains(err.Error(), "no pullcept key") {
		t.Fatalf("open with the key removed: %v", err)
	}
	again, err := c.Seal("two")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Open(sealed); !errors.Is(err, ErrEnvUnopenable) || !strings.Contains(err.Error(), "another pullcept key") {
		t.Fatalf("open of a value sealed under the old key: %v", err)
	}
	if got, err := b.Open(again); err != nil || got != "two" {
		t.Fatalf("a vault holding the old key opens a new value: %q, %v (it must read the new key)", got, err)
	}
}
