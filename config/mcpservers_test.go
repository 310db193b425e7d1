package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMCPServersRoundTrip(t *testing.T) {
	dir := t.TempDir()
	body := `{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "zeta": {"command": "node", "args": ["/opt/z.mjs"], "env": {"B": "2", "A": "1"}, "disabled": false},
    "alpha": {"type": "stdio", "command": "python3"}
  }
}`
	path := filepath.Join(dir, MCPServersFileName)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadMCPServers(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Exists() || !slices.Equal(s.Names(), []string{"zeta", "alpha"}) {
		t.Fatalf("names %q exists %v", s.Names(), s.Exists())
	}
	z, _ := s.Get("zeta")
	if z.Command != "node" || !slices.Equal(z.Args, []string{"/opt/z.mjs"}) || !slices.Equal(z.Env, []EnvVar{{"B", "2"}, {"A", "1"}}) {
		t.Errorf("zeta = %+v", z)
	}
	z.Args = append(z.Args, "--verbose")
	s.Set("zeta", z)
	s.Set("new", MCPServer{Command: "bridge"})
	if !s.Remove("alpha") || s.Remove("alpha") {
		t.Error("Remove reports wrongly")
	}
	if err := s.Save(dir); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{`"globalShortcut": "Ctrl+Space"`, `"disabled": false`, `"--verbose"`, `"new"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("saved file lacks %s:\n%s", want, data)
		}
	}
	if bytes.Index(data, []byte(`"B"`)) > bytes.Index(data, []byte(`"A"`)) {
		t.Errorf("env order changed:\n%s", data)
	}
	if bytes.Contains(data, []byte(`"alpha"`)) {
		t.Error("removed server still written")
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o644 && os.PathSeparator == '/' {
		t.Errorf("permissions changed to %v", st.Mode().Perm())
	}
}

func TestMCPServersMissingAndBad(t *testing.T) {
	dir := t.TempDir()
	s, err := LoadMCPServers(dir)
	if err != nil || s.Exists() || len(s.Names()) != 0 {
		t.Fatalf("missing file: %v %v %q", err, s.Exists(), s.Names())
	}
	for _, body := range []string{`{"mcpServers": []}`, `{"mcpServers": {"x": {"args": "no"}}}`, `{"mcpServers": {"x": {"env": {"A": 1}}}}`, `nope`} {
		if err := os.WriteFile(filepath.Join(dir, MCPServersFileName), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadMCPServers(dir); !errors.Is(err, ErrBadFile) {
			t.Errorf("LoadMCPServers(%s) = %v, want ErrBadFile", body, err)
		}
	}
	s = &MCPServers{}
	s.Set("x", MCPServer{})
	if err := s.Save(t.TempDir()); !errors.Is(err, ErrNoCommand) {
		t.Errorf("server without command saved: %v", err)
	}
}
