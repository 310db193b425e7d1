package codex

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
)

// TestStaleRoomEntriesRemoved: the room entries an earlier build wrote into
// a project's .codex/config.toml (a name starting pullcept-room, an env
// with PULLCEPT_ACCOUNT_ID) are removed, in every form TOML gives them —
// tables with a multi-line array, an env sub-table, an inline table under
// [mcp_servers], dotted keys, a quoted name — and everything else stays
// byte for byte: other keys and tables, an entry with our prefix but no
// account id, comments, CRLF line ends. [mcp_servers] goes when nothing
// else is left in it. Before, nothing removed them.
func TestStaleRoomEntriesRemoved(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in, want string
		removed        []string
	}{
		{"tables", `# My Codex project settings
model = "gpt-5.5"   # the model

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]

[mcp_servers.pullcept-room-lin-1a2b3c]
command = "node"
args = [
  "/opt/pullcept/sidecar.mjs",
  "--room",
]
enabled = false

[mcp_servers.pullcept-room-lin-1a2b3c.env]
PULLCEPT_ACCOUNT_ID = "lin"
PULLCEPT_ROOM_URL = "ws://127.0.0.1:41234"

# keep this comment
[mcp_servers.pullcept-room-other]   # not ours: no account id
command = "node"

[profiles.fast]
model = "gpt-5.5-mini"
`, `# My Codex project settings
model = "gpt-5.5"   # the model

[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]

# keep this comment
[mcp_servers.pullcept-room-other]   # not ours: no account id
command = "node"

[profiles.fast]
model = "gpt-5.5-mini"
`, []string{"pullcept-room-lin-1a2b3c"}},
		{"only ours", `model = "x"

[mcp_servers.pullcept-room-a-1]
command = "node"
enabled = false

[mcp_servers.pullcept-room-a-1.env]
PULLCEPT_ACCOUNT_ID = "a"

[mcp_servers.pullcept-room-b-2]
env = { PULLCEPT_ACCOUNT_ID = "b", PULLCEPT_ROOM_URL = "ws://127.0.0.1:9" }
`, `model = "x"
`, []string{"pullcept-room-a-1", "pullcept-room-b-2"}},
		{"inline under the table", `[mcp_servers]
# the room
pullcept-room-a-1 = { command = "node", enabled = false, env = { PULLCEPT_ACCOUNT_ID = "a" } }
"pullcept-room-quoted" = { env = { PULLCEPT_ACCOUNT_ID = "q" } }

[tui]
alternate_screen = "never"
`, `# the room

[tui]
alternate_screen = "never"
`, []string{"pullcept-room-a-1", "pullcept-room-quoted"}},
		{"dotted keys", "mcp_servers.pullcept-room-a.command = \"node\"\r\nmcp_servers.pullcept-room-a.env.PULLCEPT_ACCOUNT_ID = \"a\"\r\nmcp_servers.mine.command = \"x\"\r\n",
			"mcp_servers.mine.command = \"x\"\r\n", []string{"pullcept-room-a"}},
		{"none of ours", "[mcp_servers.pullcept-room-x]\ncommand = \"node\"\n", "[mcp_servers.pullcept-room-x]\ncommand = \"node\"\n", nil},
	} {
		out, removed, err := withoutStaleEntries([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if string(out) != c.want || !slices.Equal(removed, c.removed) {
			t.Errorf("%s: removed %q, got:\n%s\nwant:\n%s", c.name, removed, out, c.want)
		}
	}
	if _, _, err := withoutStaleEntries([]byte("[mcp_servers\nbroken")); err == nil {
		t.Error("a file that is not TOML was read")
	}
}

// writeProjectFile writes dir/.codex/config.toml.
func writeProjectFile(t *testing.T, dir, text string) string {
	t.Helper()
	p := filepath.Join(dir, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o640); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRemoveStaleRoomEntriesFile: the file is rewritten in place, keeping
// its permission bits, only when an entry went; a file with none (or no
// file, or a file that is not TOML) is not written; a link out of the
// working directory is refused.
func TestRemoveStaleRoomEntriesFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if got, err := RemoveStaleRoomEntries(dir); err != nil || got != nil {
		t.Fatalf("no file: %q %v", got, err)
	}
	p := writeProjectFile(t, dir, "model = \"x\"\n\n[mcp_servers.pullcept-room-a]\nenv = { PULLCEPT_ACCOUNT_ID = \"a\" }\n")
	got, err := RemoveStaleRoomEntries(dir)
	if err != nil || !slices.Equal(got, []string{"pullcept-room-a"}) {
		t.Fatalf("removed %q %v", got, err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "model = \"x\"\n" || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640) {
		t.Fatalf("file %q, mode %v", b, fi.Mode())
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if got, err := RemoveStaleRoomEntries(dir); err != nil || got != nil {
		t.Fatalf("nothing left to remove: %q %v", got, err)
	}
	if fi, _ := os.Stat(p); !fi.ModTime().Equal(old) {
		t.Fatal("a file without stale entries was written")
	}
	writeProjectFile(t, dir, "[mcp_servers\n")
	if _, err := RemoveStaleRoomEntries(dir); err == nil {
		t.Fatal("a file that is not TOML: no error")
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, ".codex")); len(entries) != 1 {
		t.Fatalf("left in .codex: %v", entries)
	}
	if runtime.GOOS == "windows" {
		return // links need privileges there; the root is the same
	}
	outside := t.TempDir()
	target := writeProjectFile(t, outside, "[mcp_servers.pullcept-room-a]\nenv = { PULLCEPT_ACCOUNT_ID = \"a\" }\n")
	linked := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, ".codex"), filepath.Join(linked, ".codex")); err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveStaleRoomEntries(linked); err == nil {
		t.Fatal("a .codex linked out of the working directory was followed")
	}
	if b, _ := os.ReadFile(target); len(b) == 0 || string(b) == "" {
		t.Fatal("the file outside was changed")
	}
}

// TestPrepareCleansTheProjectConfig: a Codex seat's start removes the
// stale entries from the config of the directory it starts in; a file it
// cannot clean is a launch warning, and the start goes on.
func TestPrepareCleansTheProjectConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := writeProjectFile(t, dir, "model = \"x\"\n\n[mcp_servers.pullcept-room-a]\nenv = { PULLCEPT_ACCOUNT_ID = \"a\" }\n")
	prepare := func() *launch.Launch {
		l := &launch.Launch{Dir: dir}
		ln := &cli.Launching{Account: config.Account{ID: "cc", Kind: config.KindCodexCLI, WorkDir: dir}, Launch: l,
			Getenv: func(string) string { return "" }, Logger: slog.New(slog.DiscardHandler)}
		if _, err := New(time.Second, nil).Prepare(context.Background(), ln); err != nil {
			t.Fatal(err)
		}
		return l
	}
	if l := prepare(); len(l.Warnings) != 0 {
		t.Fatalf("warnings %q", l.Warnings)
	}
	if b, _ := os.ReadFile(p); string(b) != "model = \"x\"\n" {
		t.Fatalf("after the start: %q", b)
	}
	writeProjectFile(t, dir, "[mcp_servers\n")
	if l := prepare(); len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "stale room entries of an earlier Pullcept not removed") {
		t.Fatalf("a file that cannot be cleaned: warnings %q", l.Warnings)
	}
}
