package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trueTree is a small repository whose documents name only what exists,
// in every form the checks read.
var trueTree = map[string]string{
	".gitignore": "/bin/\ntestdata/gen/\n",
	"room/hub.go": `// Package room holds the rooms (docs/design.md §2 "The brake", §9;
// Hub.Post, room.Terminals, Terminals.Enqueue, brake.go, room/pubsub,
// TestPost, config.json, e.g. this).
package room

type Hub struct{ mu int }

func (h *Hub) Post() {}

type Terminals interface{ Enqueue() }

type roomState struct{ closed bool }
`,
	"room/brake.go":    "package room\n\nconst key = \"alwaysLoad\"\n\nfunc (h *Hub) typeLocked() {}\n",
	"room/hub_test.go": "package room\n\nimport \"testing\"\n\nfunc TestPost(t *testing.T) {}\n",
	"room/pubsub/pubsub.go": `// Package pubsub is the event queue.
package pubsub

type Broker[T any] struct{ mu int }

func (b *Broker[T]) Publish(v T) {}
`,
	"docs/design.md": "# Design\n\n## §2 One path\n\n### The brake\n\nText.\n\n```\n`room/nowhere.go` in a fence\n```\n\n## §9 Accounts\n\nMore.\n",
	"docs/clis.md":   "# CLIs\n\n## 2. Claude\n\n### 2.5 Typing\n\nSee §2.5 and [design.md §9](design.md); `Screen.ScrollUp` is a library's.\n",
	"README.md": "# Repo\n\nRead [the design](docs/design.md#2) and `docs/clis.md`: `room/hub.go`,\n" +
		"`Hub.mu`, `Hub.Post()`, `pubsub.Broker[T].Publish`, `roomState.closed`, `room.Hub.Post`,\n" +
		"`testdata/gen/out`, `bin/pullcept`, `config.json`, `logs/main/index.json`, `~/.claude/x`,\n" +
		"`<topic>.jsonl`, `tui/editor*.go`, `X_update.go`, `https://example.com/a/b`, `hello`,\n" +
		"`tea.Cmd`, `config.model_reasoning_effort`, `Makefile`. docs/design.md §2–§9, design §2.\n" +
		"`typeLocked`, `alwaysLoad`, `xxxMsg`.\n",
	"Makefile":                    "all:\n",
	"testdata/fakeapi/fakeapi.go": "// Package fakeapi is a fake.\npackage fakeapi\n",
}

// writeTree writes files under a new directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// with is trueTree with old replaced by new in file (new appended when
// old is "").
func with(file, old, new string) map[string]string {
	files := map[string]string{}
	for k, v := range trueTree {
		files[k] = v
	}
	if old == "" {
		files[file] += new
	} else {
		files[file] = strings.Replace(files[file], old, new, 1)
	}
	return files
}

func TestTrueDocsPass(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if code := run(writeTree(t, trueTree), &out, &errOut); code != 0 {
		t.Fatalf("exit %d on true docs:\n%s%s", code, out.String(), errOut.String())
	}
}

// TestEachProblemIsCaught: one stale statement at a time, and the line
// docscheck prints for it.
func TestEachProblemIsCaught(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file, old, new, want string
	}{
		{"a path", "README.md", "", "\n`room/gone.go`\n", "README.md:10: room/gone.go: no such file or directory"},
		{"a directory", "docs/design.md", "", "\nSee `testdata/fakeold`.\n", "docs/design.md:17: testdata/fakeold: no such file or directory"},
		{"a link", "README.md", "", "\n[gone](docs/gone.md)\n", "README.md:10: docs/gone.md: no such file or directory (link)"},
		{"a link from docs/", "docs/design.md", "", "\n[arch](architecture.md)\n", "docs/design.md:17: architecture.md: no such file or directory (link)"},
		{"a method", "README.md", "", "\n`Hub.Gone`\n", "README.md:10: Hub.Gone: no type Hub of ours has a field or method Gone"},
		{"a package's name", "README.md", "", "\n`room.Gone`\n", "README.md:10: room.Gone: package room declares no Gone"},
		{"a member through the package", "README.md", "", "\n`room.Hub.Gone`\n", "README.md:10: room.Hub.Gone: type room.Hub has no field or method Gone"},
		{"a camelCase name", "README.md", "", "\n`typeLockd`\n", "README.md:10: typeLockd: no identifier or string in the Go code is named so"},
		{"a PascalCase name", "README.md", "", "\n`ErrNoSeatt`\n", "README.md:10: ErrNoSeatt: no identifier or string in the Go code is named so"},
		{"a test", "README.md", "", "\n`TestGone`\n", "README.md:10: TestGone: no such test, benchmark or fuzz target in a _test.go file"},
		{"a section", "README.md", "", "\nSee docs/design.md §7.\n", "README.md:10: docs/design.md §7: no such numbered section"},
		{"a bare section", "README.md", "", "\nSee §3.\n", "README.md:10: docs/design.md §3: no such numbered section"},
		{"a listed section", "README.md", "", "\nSee docs/design.md §2, §4.\n", "README.md:10: docs/design.md §4: no such numbered section"},
		{"a section of itself", "docs/clis.md", "", "\nSee §3.1.\n", "docs/clis.md:9: docs/clis.md §3.1: no such numbered section"},
		{"a section through a link", "docs/clis.md", "", "\nSee [§9](design.md).\n", ""},
		{"a linked section", "docs/clis.md", "", "\nSee [§2.6](clis.md).\n", "docs/clis.md:9: docs/clis.md §2.6: no such numbered section"},
		{"a named section", "README.md", "", "\nSee docs/design.md §2 \"The break\".\n", "README.md:10: docs/design.md §2 \"The break\": not in that section"},
		{"a document", "README.md", "", "\nSee plan.md §2.\n", "README.md:10: plan.md: no such document"},
		{"a package doc's file", "room/hub.go", "brake.go,", "gone.go,", "room/hub.go:2: gone.go: no such file or directory"},
		{"a package doc's identifier", "room/pubsub/pubsub.go", "queue.", "queue (Broker.Publish, Broker.Wait).", "room/pubsub/pubsub.go:1: Broker.Wait: no type Broker of ours has a field or method Wait"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			problems, err := check(writeTree(t, with(tc.file, tc.old, tc.new)))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			if tc.want == "" && len(got) == 0 {
				return
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Fatalf("got %q\nwant [%q]", got, tc.want)
			}
		})
	}
}

// TestPending: a problem pending.txt lists is not reported; an entry that
// matches nothing is.
func TestPending(t *testing.T) {
	t.Parallel()
	files := with("README.md", "", "\n`Hub.Gone`\n")
	files[pendingFile] = "# seats, until the split\nREADME.md: Hub.Gone: no type Hub of ours has a field or method Gone\n"
	var out, errOut bytes.Buffer
	if code := run(writeTree(t, files), &out, &errOut); code != 0 {
		t.Fatalf("exit %d with the problem pending:\n%s", code, out.String())
	}
	files = with("README.md", "", "")
	files[pendingFile] = "# until the split\nREADME.md: Hub.Gone: no type Hub of ours has a field or method Gone\n"
	out.Reset()
	if code := run(writeTree(t, files), &out, &errOut); code != 1 || !strings.Contains(out.String(), pendingFile+":2: no longer reported") {
		t.Fatalf("exit %d, a stale entry: %s", code, out.String())
	}
}
