package app

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/testdata/testkit"
	"github.com/pullcept/pullcept/tui"
)

// TestAccountEnvThroughTheBackend: the UI's path for env values, wired as
// the app wires it (the system vault, here a private Secret Service): a
// typed value is sealed into config.json; AccountEnv draws it masked; the
// drawing saved back keeps the sealed value byte for byte; a seat's process
// gets the value; with the keyring locked a new App cannot draw the field,
// refuses the seat (naming the variable) and still saves other fields.
func TestAccountEnvThroughTheBackend(t *testing.T) {
	ss := testkit.StartSecretService(t, true)
	a, b := openTest(t)
	const secret = "ghp_app_secret_0123456789"
	acc := accountInfo(t, b, "sh")
	acc.Env = "GH_TOKEN=" + secret + "\nGH_CONFIG_DIR="
	if _, err := b.SaveAccount(acc); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(a.dataDir, config.FileName)
	raw := readText(t, path)
	if strings.Contains(raw, secret) || !strings.Contains(raw, `"sealed": "keyring:`) {
		t.Fatalf("config.json:\n%s", raw)
	}
	field, err := b.AccountEnv("sh")
	if want := "GH_TOKEN=" + config.MaskValue(secret) + "\nGH_CONFIG_DIR="; err != nil || field.Text != want {
		t.Fatalf("AccountEnv = %+v, %v; want %q", field, err, want)
	}
	acc.Env, acc.Name = field.Text, "Shell 2"
	if _, err := b.SaveAccount(acc); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, path); sealedOf(got) != sealedOf(raw) || sealedOf(raw) == "" {
		t.Fatalf("the row left alone was sealed again: %q → %q", sealedOf(raw), sealedOf(got))
	}
	topic, _ := b.NewTopic()
	if _, err := b.StartSeat(topic, "sh", 80, 24); err != nil {
		t.Fatal(err)
	}
	infos := a.seats.Seats(topic)
	if len(infos) != 1 {
		t.Fatalf("seats = %+v", infos)
	}
	environ := strings.Split(readText(t, filepath.Join("/proc", strconv.Itoa(infos[0].Pid), "environ")), "\x00")
	if !slices.Contains(environ, "GH_TOKEN="+secret) {
		t.Error("the seat's process lacks GH_TOKEN")
	}
	if err := b.StopSeat(topic, "sh"); err != nil {
		t.Fatal(err)
	}
	nextEvent(t, b, func(e tui.SeatChanged) bool { return e.State == tui.SeatExited })
	if log := readText(t, filepath.Join(a.dataDir, logFileName)); !strings.Contains(log, "seat started") || strings.Contains(log, secret) {
		t.Errorf("the app log lacks the seat's start or holds the value:\n%s", log)
	}

	ss.Lock(t)
	b.Close()
	a.Close()
	a2, err := Open(a.dataDir, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a2.Close)
	b2 := NewBackend(a2)
	t.Cleanup(b2.Close)
	if _, err := b2.AccountEnv("sh"); !errors.Is(err, config.ErrNoSecretStore) {
		t.Fatalf("AccountEnv with the keyring locked: %v", err)
	}
	if _, err := b2.StartSeat(topic, "sh", 80, 24); err == nil || !strings.Contains(err.Error(), "GH_TOKEN") || strings.Contains(err.Error(), secret) {
		t.Fatalf("start with the keyring locked: %v; want a refusal naming GH_TOKEN", err)
	}
	acc = accountInfo(t, b2, "sh")
	acc.Name, acc.KeepEnv = "Shell 3", true
	if _, err := b2.SaveAccount(acc); err != nil {
		t.Fatalf("save keeping the env with the keyring locked: %v", err)
	}
	if got := readText(t, path); sealedOf(got) != sealedOf(raw) {
		t.Fatal("a save with the keyring locked changed the sealed value")
	}
	acc.KeepEnv, acc.Env = false, "NEW_TOKEN=v"
	if _, err := b2.SaveAccount(acc); !errors.Is(err, tui.ErrNoSecretStore) || !errors.Is(err, config.ErrNoSecretStore) {
		// The UI says it in the human's language (issue 35).
		t.Fatalf("a new value with the keyring locked: %v, want tui.ErrNoSecretStore", err)
	}
	if log := readText(t, filepath.Join(a.dataDir, logFileName)); strings.Contains(log, secret) {
		t.Errorf("the app log holds the value:\n%s", log)
	}
}

func accountInfo(t *testing.T, b *Backend, id string) tui.AccountInfo {
	t.Helper()
	all, err := b.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	for _, acc := range all {
		if acc.ID == id {
			return acc
		}
	}
	t.Fatalf("no account %s", id)
	return tui.AccountInfo{}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sealedOf is the first sealed value in a config.json text.
func sealedOf(text string) string {
	_, rest, ok := strings.Cut(text, `"sealed": "`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}
