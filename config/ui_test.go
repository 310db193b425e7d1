package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestUISettings(t *testing.T) {
	dir := t.TempDir()
	body := `{"accounts":[],"keys":{"new_topic":["ctrl+n","f3"],"SeatStart":["S"]},"language":"ja"}`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PULLCEPT_LANGUAGE", "")
	ui, err := c.UI()
	if err != nil {
		t.Fatal(err)
	}
	// Map keys keep their case: viper never sees the keys map.
	want := map[string][]string{"new_topic": {"ctrl+n", "f3"}, "SeatStart": {"S"}}
	if !reflect.DeepEqual(ui.Keys, want) || ui.Language != "ja" {
		t.Fatalf("ui = %+v", ui)
	}
	t.Setenv("PULLCEPT_LANGUAGE", "en")
	if ui, _ = c.UI(); ui.Language != "en" {
		t.Fatalf("env override: language = %q", ui.Language)
	}
}

func TestUISettingsBadShape(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"keys":["ctrl+n"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.UI(); !errors.Is(err, ErrBadFile) {
		t.Fatalf("err = %v, want ErrBadFile", err)
	}
}
