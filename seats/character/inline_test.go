package character

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inlineDefs is the spec's example (#276) with CRLF line ends, a fenced
// heading and a rule inside Lin's block.
const inlineDefs = "共通指示をここへ置く。\r\n" +
	"# character_Codex_Lin\r\n" +
	"NAME=Codex Lin\r\n" +
	"## 詳細\r\n" +
	"```md\r\n" +
	"# character_Fake\r\n" +
	"```\r\n" +
	"---\r\n" +
	"\r\n" +
	"  trailing space  \r\n" +
	"# character_Codex_Lay   \r\n" +
	"NAME=Codex Lay\r\n" +
	"~~~~\r\n" +
	"# not a boundary\r\n" +
	"~~~\r\n" +
	"still fenced\r\n" +
	"~~~~~ \t\r\n" +
	"Lay の本文。\r\n" +
	"# 共通の続き\r\n" +
	"この見出し以降は両方に残る。"

// TestSelectInline: the selected block stays where it is, the other
// character blocks go, everything else stays byte for byte.
func TestSelectInline(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, pick, want string
	}{
		{"Lin", inlineDefs, "character_Codex_Lin",
			"共通指示をここへ置く。\r\n# character_Codex_Lin\r\nNAME=Codex Lin\r\n## 詳細\r\n```md\r\n# character_Fake\r\n```\r\n---\r\n\r\n  trailing space  \r\n" +
				"# 共通の続き\r\nこの見出し以降は両方に残る。"},
		{"Lay, trailing blanks of the heading not part of its name", inlineDefs, "character_Codex_Lay",
			"共通指示をここへ置く。\r\n# character_Codex_Lay   \r\nNAME=Codex Lay\r\n~~~~\r\n# not a boundary\r\n~~~\r\nstill fenced\r\n~~~~~ \t\r\nLay の本文。\r\n" +
				"# 共通の続き\r\nこの見出し以降は両方に残る。"},
		{"only blocks", "# character_A\na\n# character_B\nb\n", "character_B", "# character_B\nb\n"},
		{"block to the end, no final line end", "common\n# character_A\na", "character_A", "common\n# character_A\na"},
		{"a heading needs column 0 and a space", "x\n #  character_A\n#character_B\n# character_A\nbody\n", "character_A",
			"x\n #  character_A\n#character_B\n# character_A\nbody\n"},
		{"an H2 is body", "# character_A\n## character_B\nb\n", "character_A", "# character_A\n## character_B\nb\n"},
		{"an unclosed fence runs to the end", "# character_A\n```\n# character_B\n", "character_A", "# character_A\n```\n# character_B\n"},
		{"a shorter or other fence does not close", "# character_A\n````\n```\n~~~~\n# character_B\n````\n# character_B\nb\n", "character_B",
			"# character_B\nb\n"},
		{"a closing fence with text after does not close", "# character_A\n```\n``` x\n# character_B\n```\nb\n", "character_A",
			"# character_A\n```\n``` x\n# character_B\n```\nb\n"},
	} {
		got, err := SelectInline(tc.text, tc.pick)
		if err != nil || got != tc.want {
			t.Errorf("%s: SelectInline(%q) =\n%q, %v\nwant\n%q", tc.name, tc.pick, got, err, tc.want)
		}
	}
}

// TestSelectInlineRefusals: every block is checked; a bad heading, a
// repeated name, an empty block and an unknown name refuse, never fall back.
func TestSelectInlineRefusals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, pick, says string
		nameErr                bool
	}{
		{"unknown name", inlineDefs, "character_Codex_Lux", "no heading # character_Codex_Lux", false},
		{"unknown lists the names", inlineDefs, "character_X", `headings "character_Codex_Lin", "character_Codex_Lay"`, false},
		{"the name without its prefix", inlineDefs, "Codex_Lin", "like character_Codex_Lin", false},
		{"no instructions", "", "character_A", "no character headings", false},
		{"a fenced heading is no block", inlineDefs, "character_Fake", "no heading # character_Fake", false},
		{"an H2 is no block", "# character_A\n## character_B\nb\n", "character_B", "no heading", false},
		{"twice", "# character_A\na\n# character_B\nb\n# character_A\nc\n", "character_B", `line 5: "character_A" is defined twice`, false},
		{"an empty block elsewhere", "# character_A\na\n# character_B\n\n  \r\n# end\n", "character_A", `line 3: "character_B" has no text`, false},
		{"an empty block at the end", "# character_A\na\n# character_B\n", "character_A", `"character_B" has no text`, false},
		{"a heading with a space", "# character_A\na\n# character_B x\nb\n", "character_A", "line 3", false},
		{"a heading with a full-width space", "# character_A\na\n# character_B\u3000x\nb\n", "character_A", "line 3", false},
		{"a bare prefix heading", "# character_\nb\n", "character_A", "line 1", false},
		{"a long bad heading is cut", "# character_A B" + strings.Repeat("x", 500) + "\n", "character_A", "xxx…\"", false},
		{"asking for a name with a space", inlineDefs, "character_Codex Lin", "", true},
		{"asking for nothing", inlineDefs, "", "", true},
		{"asking for the bare prefix", inlineDefs, "character_", "", true},
		{"asking with a control character", inlineDefs, "character_A\x00", "", true},
	} {
		_, err := SelectInline(tc.text, tc.pick)
		want := ErrInline
		if tc.nameErr {
			want = ErrName
		}
		if !errors.Is(err, want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: err %v, want %v saying %q", tc.name, err, want, tc.says)
		}
	}
}

// TestSelectInlineCap: a selection over MaxBytes is refused, one at
// MaxBytes passes.
func TestSelectInlineCap(t *testing.T) {
	t.Parallel()
	head := "# character_A\n"
	fits := head + strings.Repeat("a", MaxBytes-len(head)-1) + "\n"
	if got, err := SelectInline(fits+"# character_B\n"+strings.Repeat("b", MaxBytes), "character_A"); err != nil || got != fits {
		t.Errorf("a selection of %d bytes out of a bigger text: %d bytes, %v", len(fits), len(got), err)
	}
	if _, err := SelectInline("x\n"+fits, "character_A"); !errors.Is(err, ErrInline) || !strings.Contains(err.Error(), "limit") {
		t.Errorf("a selection over the limit: %v", err)
	}
}

// FuzzSelectInline: never panics; a selection is a subsequence of the
// input's lines, holds the selected heading, and fits MaxBytes.
func FuzzSelectInline(f *testing.F) {
	f.Add(inlineDefs, "character_Codex_Lin")
	f.Add("# character_A\r\na\r\n```\r\n# character_B\r\n", "character_A")
	f.Add("~~~\n# character_A\n~~~\n# character_A\nx", "character_A")
	f.Fuzz(func(t *testing.T, text, name string) {
		got, err := SelectInline(text, name)
		if err != nil {
			if got != "" {
				t.Fatalf("a refusal with text %q", got)
			}
			return
		}
		if len(got) > MaxBytes {
			t.Fatalf("%d bytes", len(got))
		}
		in := strings.SplitAfter(text, "\n")
		i := 0
		for _, l := range strings.SplitAfter(got, "\n") {
			if l == "" {
				continue
			}
			for i < len(in) && in[i] != l {
				i++
			}
			if i == len(in) {
				t.Fatalf("line %q is not in the input's order:\n%q\n→\n%q", l, text, got)
			}
			i++
		}
		if !strings.Contains(got, "# "+name) {
			t.Fatalf("the selection lacks its heading: %q", got)
		}
	})
}

// TestCodexInline: a project selects inline when no folder of it, up to
// the one holding .git, has .codex/output-styles or [liplus] output_style.
func TestCodexInline(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	work := filepath.Join(root, "repo", "sub")
	mkdir := func(p string) {
		t.Helper()
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		t.Helper()
		mkdir(filepath.Dir(p))
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, want bool) {
		t.Helper()
		got, err := CodexInline(work)
		if err != nil || got != want {
			t.Errorf("%s: inline %v, %v; want %v", what, got, err, want)
		}
	}
	mkdir(work)
	check("no .codex anywhere", true)
	// Without .git only the working directory counts.
	mkdir(filepath.Join(root, "repo", ".codex", "output-styles"))
	check("a parent's styles, no project root", true)
	mkdir(filepath.Join(root, "repo", ".git"))
	check("the project root's styles", false)
	if err := os.RemoveAll(filepath.Join(root, "repo", ".codex")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(work, ".codex", "config.toml"), "model = \"x\"\n[liplus]\nother = 1\n")
	check("a config.toml without the selector", true)
	write(filepath.Join(root, "repo", ".codex", "config.toml"), "[liplus]\noutput_style = false\n")
	check("the selector false in the root", false)
	write(filepath.Join(root, "repo", ".codex", "config.toml"), "[liplus]\noutput_style = \"character_instance\"\n")
	check("a selector name", false)
	// Above the project root nothing counts.
	if err := os.RemoveAll(filepath.Join(root, "repo", ".codex")); err != nil {
		t.Fatal(err)
	}
	mkdir(filepath.Join(root, ".codex", "output-styles"))
	check("styles above the project root", true)
	write(filepath.Join(work, ".codex", "config.toml"), "[liplus\n")
	if _, err := CodexInline(work); err == nil {
		t.Error("a broken config.toml: no error")
	}
	// The home folder's .codex is the user's, no project layer.
	if got := codexProjectDirs(work, filepath.Join(root, "repo")); len(got) != 1 || got[0] != work {
		t.Errorf("dirs with home at the project root: %q", got)
	}
}
