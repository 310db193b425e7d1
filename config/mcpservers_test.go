package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeMCPServers writes body as dir's mcp-servers.json.
func writeMCPServers(t *testing.T, dir, body string) string {
	t.Helper()
	path := filepath.Join(dir, MCPServersFileName)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// mcpFileIn is a file in the layout Pullcept writes: a top key of another
// program, an entry of ours, one with keys we do not know (and a number
// and escapes written as they are), then the last entry.
const mcpFileIn = `{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "github-webhook-mcp": {
      "command": "node",
      "args": [
        "/opt/bridge/webhook-bridge.mjs"
      ]
    },
    "weather": {
      "type": "stdio",
      "command": "uvx",
      "args": [
        "weather-mcp"
      ],
      "env": {
        "UNITS": "metric",
        "CAF\u00c9": "1"
      },
      "timeout": 1.50e3,
      "disabled": false
    },
    "notes": {
      "command": "notes-mcp"
    }
  },
  "theme": {
    "dark": true
  }
}
`

// TestMCPServersRoundTrip: List reads the entries in file order; SetServer
// changes only command, args and env of its entry, in place, and every
// other key and entry keeps its bytes; a new entry goes at the end.
func TestMCPServersRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeMCPServers(t, dir, mcpFileIn)
	s := NewMCPServers(dir)
	got, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []MCPServer{
		{Name: "github-webhook-mcp", Command: "node", Args: []string{"/opt/bridge/webhook-bridge.mjs"}},
		{Name: "weather", Command: "uvx", Args: []string{"weather-mcp"}, Env: []MCPEnv{{"UNITS", "metric"}, {"CAFÉ", "1"}}},
		{Name: "notes", Command: "notes-mcp"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("List = %+v\nwant %+v", got, want)
	}
	if err := s.SetServer("weather", " uv ", []string{"run", "weather mcp"}, []MCPEnv{{"UNITS", "imperial"}}); err != nil {
		t.Fatal(err)
	}
	wantOut := strings.Replace(mcpFileIn, `"command": "uvx",
      "args": [
        "weather-mcp"
      ],
      "env": {
        "UNITS": "metric",
        "CAF\u00c9": "1"
      },`, `"command": "uv",
      "args": [
        "run",
        "weather mcp"
      ],
      "env": {
        "UNITS": "imperial"
      },`, 1)
	if b, _ := os.ReadFile(path); string(b) != wantOut {
		t.Fatalf("after SetServer:\n%s\nwant\n%s", b, wantOut)
	}
	if err := s.SetServer("new one", "srv", nil, nil); err != nil {
		t.Fatal(err)
	}
	wantOut = strings.Replace(wantOut, `      "command": "notes-mcp"
    }
  },`, `      "command": "notes-mcp"
    },
    "new one": {
      "command": "srv"
    }
  },`, 1)
	if b, _ := os.ReadFile(path); string(b) != wantOut {
		t.Fatalf("after adding an entry:\n%s\nwant\n%s", b, wantOut)
	}
}

// TestMCPServersSetRemove: a missing file is no servers and is made by the
// first SetServer (0600, the data directory too); empty args or env leave
// an absent key absent and empty a present one; RemoveServer removes only
// its entry, and never makes a missing file; nothing is written when
// nothing changes; bad input writes nothing.
func TestMCPServersSetRemove(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	s := NewMCPServers(dir)
	if got, err := s.List(); err != nil || len(got) != 0 {
		t.Fatalf("missing file: %v, %v", got, err)
	}
	if err := s.RemoveServer("x"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("RemoveServer made the file: %v", err)
	}
	if err := s.SetServer("a", "cmd-a", []string{"x"}, []MCPEnv{{"K", "v"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetServer("b", "cmd-b", nil, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(s.Path()); err != nil || (fi.Mode().Perm() != filePerm && os.PathSeparator == '/') {
		t.Fatalf("made file: %v, %v", fi, err)
	}
	if err := s.SetServer("a", "cmd-a", nil, nil); err != nil { // present keys emptied
		t.Fatal(err)
	}
	const both = "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"cmd-a\",\n      \"args\": [],\n      \"env\": {}\n    },\n    \"b\": {\n      \"command\": \"cmd-b\"\n    }\n  }\n}\n"
	if b, _ := os.ReadFile(s.Path()); string(b) != both {
		t.Fatalf("file:\n%s\nwant\n%s", b, both)
	}
	before := statFile(t, s.Path())
	if err := s.SetServer("b", "cmd-b", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveServer("nope"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		name, cmd string
		env       []MCPEnv
		want      error
	}{
		{"", "c", nil, ErrBadName},
		{"  ", "c", nil, ErrBadName},
		{"a\nb", "c", nil, ErrBadName},
		{"b", "  ", nil, ErrNoCommand},
		{"b", "c", []MCPEnv{{"MY VAR", "1"}}, ErrEnvSyntax},
		{"b", "c", []MCPEnv{{"", "1"}}, ErrEnvSyntax},
		{"b", "c", []MCPEnv{{"Path", "1"}, {"PATH", "2"}}, ErrEnvDuplicate},
	} {
		if err := s.SetServer(bad.name, bad.cmd, nil, bad.env); !errors.Is(err, bad.want) {
			t.Errorf("SetServer(%q, %q, %v): %v, want %v", bad.name, bad.cmd, bad.env, err, bad.want)
		}
	}
	if b, _ := os.ReadFile(s.Path()); string(b) != both || !os.SameFile(before, statFile(t, s.Path())) {
		t.Fatalf("a change to nothing or a refusal wrote the file:\n%s", b)
	}
	if err := s.RemoveServer("a"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.List(); err != nil || len(got) != 1 || got[0].Name != "b" {
		t.Fatalf("after RemoveServer: %+v, %v", got, err)
	}
}

// statFile is the file's FileInfo: a write replaces the file (a rename),
// so os.SameFile tells whether one happened.
func statFile(t *testing.T, path string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// TestMCPServersBadFiles: a file that is not JSON, not an object, has
// mcpServers of another shape, names one entry twice or is too big is
// refused by every operation with an error naming it, and is never
// overwritten. A bad entry is its own MCPServer.Err: the others list, and
// a change to another entry keeps it as written.
func TestMCPServersBadFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		want       error
		says       string
	}{
		{"not JSON", "{\n  \"mcpServers\": {,\n}", ErrBadFile, MCPServersFileName + ":2:"},
		{"an array", `[1]`, ErrBadFile, "want a JSON object"},
		{"servers a list", `{"mcpServers": ["a"]}`, ErrBadFile, "mcpServers"},
		{"an entry twice", `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`, ErrDuplicateKey, `"a"`},
		{"huge", `{"mcpServers": {}, "pad": "` + strings.Repeat("x", MaxMCPServersBytes) + `"}`, ErrTooBig, MCPServersFileName},
	} {
		dir := t.TempDir()
		path := writeMCPServers(t, dir, tc.body)
		s := NewMCPServers(dir)
		_, err := s.List()
		for op, e := range map[string]error{
			"List": err, "SetServer": s.SetServer("b", "c", nil, nil), "RemoveServer": s.RemoveServer("a"),
		} {
			if !errors.Is(e, tc.want) || !errors.Is(e, ErrBadFile) || !strings.Contains(e.Error(), tc.says) {
				t.Errorf("%s: %s: %v, want %v saying %q", tc.name, op, e, tc.want, tc.says)
			}
		}
		if b, _ := os.ReadFile(path); string(b) != tc.body {
			t.Errorf("%s: the file was rewritten", tc.name)
		}
	}

	dir := t.TempDir()
	const odd = `{"mcpServers": {"odd": 5, "typed": {"command": 1, "args": "x", "env": {"K": 2}}, "bare": {}, "ok": {"command": "c"}}}`
	writeMCPServers(t, dir, odd)
	s := NewMCPServers(dir)
	got, err := s.List()
	if err != nil || len(got) != 4 {
		t.Fatalf("List: %+v, %v", got, err)
	}
	for i, want := range []error{ErrBadFile, ErrBadFile, ErrNoCommand, nil} {
		if !errors.Is(got[i].Err, want) || (want == nil) != (got[i].Err == nil) {
			t.Errorf("entry %q: Err %v, want %v", got[i].Name, got[i].Err, want)
		}
	}
	if err := s.SetServer("odd", "c", nil, nil); !errors.Is(err, ErrBadFile) {
		t.Errorf("SetServer on an entry that is no object: %v", err)
	}
	if err := s.SetServer("ok", "c2", nil, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(s.Path())
	for _, kept := range []string{`"odd": 5`, `"command": 1`, `"args": "x"`, `"K": 2`, `"bare": {}`, `"command": "c2"`} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("rewritten file lacks %s:\n%s", kept, b)
		}
	}
}
