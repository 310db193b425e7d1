package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveKeepsWhatWasEditedByHand: a key a person edited in config.json
// while Pullcept ran (a server runs for days) is kept by the next save of
// the settings, and so is a key they added; the key the save changes is
// ours. A file that no longer reads as JSON is not written over.
func TestSaveKeepsWhatWasEditedByHand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	start := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"}],"theme":"dark","x_note":"kept"}`
	if err := os.WriteFile(path, []byte(start), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBook(dir, cfg, nil)
	edited := `{"accounts":[{"id":"admin","name":"Alice","kind":"admin"}],"theme":"light","keys":{"help":["f1","f5"]},"x_note":"kept"}`
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := b.Settings()
	if err != nil {
		t.Fatal(err)
	}
	s.Language = "ja"
	if err := b.SetSettings(s); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	for _, want := range []string{`"language": "ja"`, `"theme": "light"`, `"f5"`, `"x_note": "kept"`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the saved file lacks %s:\n%s", want, got)
		}
	}

	if err := os.WriteFile(path, []byte(`{"accounts": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	s.Language = "en"
	if err := b.SetSettings(s); !errors.Is(err, ErrBadFile) {
		t.Fatalf("a save over a file being edited = %v, want ErrBadFile", err)
	}
	if got, _ := os.ReadFile(path); string(got) != `{"accounts": [` {
		t.Fatalf("the file being edited was written over: %s", got)
	}
}

// TestRereadTakesHandEdits: keys and theme edited by hand reach memory
// (the next UI's options); the accounts stay the running app's.
func TestRereadTakesHandEdits(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte(`{"accounts":[{"id":"admin","name":"Alice","kind":"admin"}],"theme":"dark"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBook(dir, cfg, nil)
	edited := `{"accounts":[{"id":"admin","name":"Bob","kind":"admin"}],"theme":"light","keys":{"help":["f5"]}}`
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := b.Reread(); err != nil {
		t.Fatal(err)
	}
	ui, err := b.UI()
	if err != nil {
		t.Fatal(err)
	}
	if ui.Theme != "light" || len(ui.Keys["help"]) != 1 || ui.Keys["help"][0] != "f5" {
		t.Fatalf("after Reread the UI settings are %+v", ui)
	}
	if a, _ := b.Admin(); a.Name != "Alice" {
		t.Fatalf("Reread took the accounts from the file: admin %q", a.Name)
	}
}
