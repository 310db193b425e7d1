package character

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/testkit"
)

func TestCheckCodexCharacter(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"character_codex_luna", "a", "A1-b_2", "9lives", strings.Repeat("x", 128)} {
		if err := CheckCodexName(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "_luna", "-luna", "luna.md", "lu na", "ルナ", "luna/x", strings.Repeat("x", 129), "a\x00"} {
		if err := CheckCodexName(bad); !errors.Is(err, ErrName) {
			t.Errorf("%q: err %v, want ErrName", bad, err)
		}
	}
}

func TestCheckCharacterName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"", "Lin", "Claude Lin", "character_Instance", "リン", "con-artist", "CONSOLE", "a.b", " Lin "} {
		if err := CheckName(config.KindClaudeCode, ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{".", "..", "a/b", `a\b`, "../x", "a:b", `a"b`, "a|b", "a?", "a*", "a<b", "Lin.", "CON", "con", "Nul", "COM1", "lpt9", "CON.txt", "COM¹", "a\tb", "a\x7fb", strings.Repeat("x", 253)} {
		if err := CheckName(config.KindClaudeCode, bad); !errors.Is(err, ErrName) {
			t.Errorf("%q: err %v, want ErrName", bad, err)
		}
	}
	if err := CheckName(config.KindCodexCLI, "Claude Lin"); !errors.Is(err, ErrName) {
		t.Errorf("a Codex name with a space: %v", err)
	}
	if _, err := Rel(config.KindCLI, "x"); !errors.Is(err, ErrName) {
		t.Errorf("a generic CLI has a character file: %v", err)
	}
	rel, err := Rel(config.KindCodexCLI, "character_codex_luna")
	if err != nil || rel != filepath.Join(".codex", "output-styles", "character_codex_luna.md") {
		t.Errorf("Codex rel = %q, %v", rel, err)
	}
	rel, err = Rel(config.KindClaudeCode, " Lin ")
	if err != nil || rel != filepath.Join(".claude", "output-styles", "Lin.md") {
		t.Errorf("Claude rel = %q, %v", rel, err)
	}
}

func TestCheckWorkDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		want error
	}{
		{dir, nil},
		{"", launch.ErrNoWorkDir},
		{"relative/dir", launch.ErrNoWorkDir},
		{filepath.Join(dir, "missing"), ErrWorkDirMissing},
		{file, ErrWorkDirNotDir},
	} {
		if err := CheckWorkDir(tc.dir); !errors.Is(err, tc.want) && (err != nil || tc.want != nil) {
			t.Errorf("%q: %v, want %v", tc.dir, err, tc.want)
		}
	}
}

// writeFile makes path (and its folders) hold data.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCharacterRoundTrip: a body read and written back unchanged is the
// same bytes — BOM and CRLF kept — and an edit keeps the form it was read in.
func TestCharacterRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		data []byte
		bom  bool
		crlf bool
	}{
		{"lf", []byte("---\nname: Lin\n---\nLin speaks softly.\n"), false, false},
		{"crlf", []byte("---\r\nname: Lin\r\n---\r\nLin speaks softly.\r\n"), false, true},
		{"bom crlf", append([]byte{0xEF, 0xBB, 0xBF}, "---\r\nname: Lin\r\n---\r\nリンは静かに話す。\r\n"...), true, true},
		{"no final newline", []byte("Lin."), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			work := t.TempDir()
			path := filepath.Join(work, ".claude", "output-styles", "Lin.md")
			writeFile(t, path, tc.data)
			cf, err := Open(config.KindClaudeCode, work, "Lin")
			if err != nil {
				t.Fatal(err)
			}
			if !cf.Exists || !cf.FolderExists || cf.BOM != tc.bom || cf.CRLF != tc.crlf || strings.Contains(cf.Text, "\r") || cf.Path != path {
				t.Fatalf("read %+v", cf)
			}
			if !bytes.Equal(Encode(cf.Text, cf.BOM, cf.CRLF), tc.data) {
				t.Fatalf("encoding the text back gives other bytes")
			}
			w := Body{Kind: config.KindClaudeCode, WorkDir: work, Name: "Lin", Text: cf.Text + "More.\n",
				BOM: cf.BOM, CRLF: cf.CRLF, Fingerprint: cf.Fingerprint}
			got, err := Write(w)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			want := append(append([]byte(nil), tc.data...), Encode("More.\n", false, tc.crlf)...)
			if !bytes.Equal(data, want) {
				t.Fatalf("file = %q, want %q", data, want)
			}
			if got.Fingerprint == cf.Fingerprint || got.Text != w.Text {
				t.Fatalf("written %+v", got)
			}
		})
	}
}

// TestCharacterMixedLineEnds: a file whose line ends are mixed is handed
// over as read (its CRs in the text): converting would change lines
// nobody edited.
func TestCharacterMixedLineEnds(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	writeFile(t, filepath.Join(work, ".claude", "output-styles", "Lin.md"), []byte("a\r\nb\nc\r\n"))
	cf, err := Open(config.KindClaudeCode, work, "Lin")
	if err != nil || cf.CRLF || cf.Text != "a\r\nb\nc\r\n" {
		t.Fatalf("%+v, %v", cf, err)
	}
}

// TestCharacterCreate: a missing file opens empty; writing it makes the
// Claude folder and the file; a Codex folder is made only when asked
// (it switches the folder's Codex seats to Li+'s file mode).
func TestCharacterCreate(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	cf, err := Open(config.KindClaudeCode, work, "Lin")
	if err != nil || cf.Exists || cf.FolderExists || cf.Text != "" || cf.Fingerprint != "" {
		t.Fatalf("missing file: %+v, %v", cf, err)
	}
	if _, err := Write(Body{Kind: config.KindClaudeCode, WorkDir: work, Name: "Lin", Text: "hi\n"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(work, ".claude", "output-styles", "Lin.md")); string(b) != "hi\n" {
		t.Fatalf("file = %q", b)
	}
	w := Body{Kind: config.KindCodexCLI, WorkDir: work, Name: "luna", Text: "hi\n"}
	if _, err := Write(w); !errors.Is(err, ErrCodexStylesFolder) {
		t.Fatalf("Codex folder made unasked: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, ".codex")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf(".codex exists after a refusal: %v", err)
	}
	if _, err := PrepareEdit(config.KindCodexCLI, work, "luna", false); !errors.Is(err, ErrCodexStylesFolder) {
		t.Fatalf("PrepareEdit made the Codex folder unasked: %v", err)
	}
	w.CreateFolder = true
	if _, err := Write(w); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(work, ".codex", "output-styles", "luna.md")); string(b) != "hi\n" {
		t.Fatalf("codex file = %q", b)
	}
}

// TestCharacterChangedElsewhere: a write is refused when the file is not
// the bytes the editor read (also when it appeared or vanished since), and
// the file is left as it is.
func TestCharacterChangedElsewhere(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	path := filepath.Join(work, ".claude", "output-styles", "Lin.md")
	writeFile(t, path, []byte("one\n"))
	cf, err := Open(config.KindClaudeCode, work, "Lin")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, []byte("two\n"))
	w := Body{Kind: config.KindClaudeCode, WorkDir: work, Name: "Lin", Text: "mine\n", Fingerprint: cf.Fingerprint}
	if _, err := Write(w); !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two\n" {
		t.Fatalf("file = %q, want the other writer's", b)
	}
	w.Fingerprint = "" // opened when there was no file: one appeared since
	if _, err := Write(w); !errors.Is(err, ErrChanged) {
		t.Fatalf("a file that appeared: %v", err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	w.Fingerprint = cf.Fingerprint // opened while it existed: it vanished since
	if _, err := Write(w); !errors.Is(err, ErrChanged) {
		t.Fatalf("a file that vanished: %v", err)
	}
}

// TestCharacterRefusals: files that do not open, each with its reason,
// and nothing written.
func TestCharacterRefusals(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	styles := filepath.Join(work, ".claude", "output-styles")
	writeFile(t, filepath.Join(styles, "latin1.md"), []byte("caf\xe9\n"))
	writeFile(t, filepath.Join(styles, "big.md"), bytes.Repeat([]byte("x"), MaxBytes+1))
	writeFile(t, filepath.Join(styles, "full.md"), bytes.Repeat([]byte("x"), MaxBytes))
	if err := os.Mkdir(filepath.Join(styles, "dir.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want error
	}{
		{"latin1", ErrNotUTF8},
		{"big", ErrTooBig},
		{"dir", ErrNotFile},
		{"../x", ErrName},
	} {
		if _, err := Open(config.KindClaudeCode, work, tc.name); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := Open(config.KindClaudeCode, work, "full"); err != nil {
		t.Errorf("a body of exactly the limit: %v", err)
	}
	cf, _ := Open(config.KindClaudeCode, work, "full")
	w := Body{Kind: config.KindClaudeCode, WorkDir: work, Name: "full", Text: cf.Text + "y", Fingerprint: cf.Fingerprint}
	if _, err := Write(w); !errors.Is(err, ErrTooBig) {
		t.Errorf("a body over the limit written: %v", err)
	}
	if _, err := Open(config.KindClaudeCode, filepath.Join(work, "missing"), "Lin"); !errors.Is(err, ErrWorkDirMissing) {
		t.Errorf("missing work dir: %v", err)
	}
	if _, err := Open(config.KindClaudeCode, "relative", "Lin"); !errors.Is(err, launch.ErrNoWorkDir) {
		t.Errorf("relative work dir: %v", err)
	}
}

// TestCharacterLinks: a link that stays inside the working directory is
// followed, and a write goes through it into the one shared file (a hard
// link too: the file is rewritten in place, not replaced); a link out of
// the working directory is refused for reading and writing, and nothing
// outside is touched.
func TestCharacterLinks(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		testkit.SkipUnderWine(t, "CreateSymbolicLinkW is a stub: it reports success and makes no link")
		if err := os.Symlink("x", filepath.Join(t.TempDir(), "probe")); err != nil {
			t.Skipf("this Windows does not let the user make symbolic links (Developer Mode off): %v", err)
		}
	}
	work := t.TempDir()
	outside := t.TempDir()
	styles := filepath.Join(work, ".claude", "output-styles")
	shared := filepath.Join(work, "shared", "lin.md")
	writeFile(t, shared, []byte("shared\n"))
	writeFile(t, filepath.Join(outside, "secret.md"), []byte("secret\n"))
	if err := os.MkdirAll(styles, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "..", "shared", "lin.md"), filepath.Join(styles, "Lin.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(styles, "Out.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(shared, filepath.Join(styles, "Hard.md")); err != nil {
		t.Fatal(err)
	}
	cf, err := Open(config.KindClaudeCode, work, "Lin")
	if err != nil || cf.Text != "shared\n" {
		t.Fatalf("inside link: %+v, %v", cf, err)
	}
	if _, err := Write(Body{Kind: config.KindClaudeCode, WorkDir: work, Name: "Lin", Text: "edited\n", Fingerprint: cf.Fingerprint}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(styles, "Lin.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi, err)
	}
	for _, p := range []string{shared, filepath.Join(styles, "Hard.md")} {
		if b, _ := os.ReadFile(p); string(b) != "edited\n" {
			t.Fatalf("%s = %q, want the edit", p, b)
		}
	}
	if _, err := Open(config.KindClaudeCode, work, "Out"); !errors.Is(err, ErrOutside) {
		t.Fatalf("outside link read: %v", err)
	}
	w := Body{Kind: config.KindClaudeCode, WorkDir: work, Name: "Out", Text: "pwned\n"}
	if _, err := Write(w); !errors.Is(err, ErrOutside) {
		t.Fatalf("outside link written: %v", err)
	}
	if _, err := PrepareEdit(config.KindClaudeCode, work, "Out", false); !errors.Is(err, ErrOutside) {
		t.Fatalf("outside link handed to an editor: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.md")); string(b) != "secret\n" {
		t.Fatalf("the outside file changed: %q", b)
	}
	// The folder itself a link out of the working directory.
	work2 := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(work2, ".claude")); err != nil {
		t.Fatal(err)
	}
	w.WorkDir, w.Name = work2, "New"
	if _, err := Write(w); !errors.Is(err, ErrOutside) {
		t.Fatalf("a folder linked outside was written into: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "output-styles")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a folder was made outside the working directory")
	}
}

// TestFrontmatterName: the name: of the frontmatter and its line, as the
// CLIs read it; none without a closed frontmatter.
func TestFrontmatterName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		name string
		line int
	}{
		{"---\nname: Claude Lin\ndescription: x\n---\nbody", "Claude Lin", 2},
		{"---\ndescription: x\nname: \"Lin: the quiet\"\n---\n", "Lin: the quiet", 3},
		{"---\ndescription: x\n---\nname: not this", "", 0},
		{"---\nname: Lin\nbody without an end", "", 0},
		{"name: Lin\n", "", 0},
		{"---\n: bad: yaml: [\n---\n", "", 0},
		{"---\nname: Lin\n---", "Lin", 2},
	} {
		if name, line := frontmatterName(tc.text); name != tc.name || line != tc.line {
			t.Errorf("%q: %q line %d, want %q line %d", tc.text, name, line, tc.name, tc.line)
		}
	}
}

// TestListStyles: Claude lists the project folders from the working
// directory up to the repository root (not past it, never the home
// folder) and the user folder of its own CLAUDE_CONFIG_DIR, each style by
// its frontmatter name or else its file name; Codex lists its folder's
// files whose names fit #281.
func TestListStyles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	repo := filepath.Join(home, "repo")
	work := filepath.Join(repo, "sub")
	cfg := filepath.Join(root, "claude-cfg")
	writeFile(t, filepath.Join(home, ".claude", "output-styles", "homeonly.md"), []byte("x"))
	writeFile(t, filepath.Join(root, ".claude", "output-styles", "above.md"), []byte("x"))
	writeFile(t, filepath.Join(repo, ".git", "HEAD"), []byte("ref"))
	writeFile(t, filepath.Join(repo, ".claude", "output-styles", "repo.md"), []byte("---\nname: Repo Style\n---\n"))
	writeFile(t, filepath.Join(work, ".claude", "output-styles", "lin.md"), []byte("---\nname: Claude Lin\n---\n"))
	writeFile(t, filepath.Join(work, ".claude", "output-styles", "plain.md"), []byte("no frontmatter"))
	writeFile(t, filepath.Join(work, ".claude", "output-styles", "notes.txt"), []byte("x"))
	writeFile(t, filepath.Join(cfg, "output-styles", "mine.md"), []byte("x"))
	writeFile(t, filepath.Join(work, ".codex", "output-styles", "character_codex_luna.md"), []byte("x"))
	writeFile(t, filepath.Join(work, ".codex", "output-styles", "bad name.md"), []byte("x"))
	env := map[string]string{"HOME": home, "USERPROFILE": home, "CLAUDE_CONFIG_DIR": cfg}
	getenv := func(k string) string { return env[k] }
	styles, err := ListStyles(config.KindClaudeCode, work, getenv)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range styles {
		got = append(got, s.Name+"@"+map[StyleScope]string{ScopeProject: "project", ScopeUser: "user"}[s.Scope])
	}
	want := []string{"Claude Lin@project", "plain@project", "Repo Style@project", "mine@user"}
	if !slices.Equal(got, want) {
		t.Fatalf("Claude styles %v, want %v", got, want)
	}
	styles, _ = ListStyles(config.KindCodexCLI, work, getenv)
	if len(styles) != 1 || styles[0].Name != "character_codex_luna" {
		t.Fatalf("Codex styles %+v", styles)
	}
	env["CLAUDE_CONFIG_DIR"] = ""
	styles, _ = ListStyles(config.KindClaudeCode, work, getenv)
	for _, s := range styles {
		if s.Name == "mine" || s.Name == "homeonly" && s.Scope == ScopeProject {
			t.Fatalf("without CLAUDE_CONFIG_DIR: %+v", styles)
		}
	}
}

// TestCharacterWearers: the other accounts naming the same body file —
// through another path to the same folder too — and only those.
func TestCharacterWearers(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	writeFile(t, filepath.Join(work, ".claude", "output-styles", "Lin.md"), []byte("x"))
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(work, alias); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	accs := []config.Account{
		{ID: "me", Name: "Me", Kind: config.KindClaudeCode, WorkDir: work, Character: "Lin"},
		{ID: "b", Name: "B", Nickname: "Bee", Kind: config.KindClaudeCode, WorkDir: work, Character: "Lin"},
		{ID: "c", Name: "C", Kind: config.KindClaudeCode, WorkDir: alias, Character: "Lin"},
		{ID: "d", Name: "D", Kind: config.KindClaudeCode, WorkDir: work},
		{ID: "e", Name: "E", Kind: config.KindCodexCLI, WorkDir: work, Character: "Lin"},
		{ID: "f", Name: "F", Kind: config.KindClaudeCode, WorkDir: work, Character: "Lay"},
	}
	want := []string{"Bee", "C"}
	if a, b := statOrNil(t, work), statOrNil(t, alias); !os.SameFile(a, b) {
		want = want[:1] // Wine makes the link but does not resolve it
	}
	if got := Wearers(config.KindClaudeCode, work, "Lin", "me", accs); !slices.Equal(got, want) {
		t.Fatalf("wearers %v, want %v", got, want)
	}
}

// TestCharacterWarnings: what is checked of a character without running
// the CLI (Li+'s helper is not here): Codex's folder, file, emptiness and
// frontmatter name, and the default it falls back to; Claude's
// frontmatter name.
func TestCharacterWarnings(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	hook := false // Li+'s hook mode; app-server mode: TestAppServerCharacterWarnings
	codex := config.Account{Kind: config.KindCodexCLI, WorkDir: work, Character: "luna", CodexAppServer: &hook}
	has := func(ws []string, part string) bool {
		for _, w := range ws {
			if strings.Contains(w, part) {
				return true
			}
		}
		return false
	}
	// Neither folder nor selector: the project selects inline (#276), no
	// file is read, and the launch line itself refuses or says so.
	if ws := FileWarnings(codex); len(ws) != 0 {
		t.Errorf("an inline project: %v", ws)
	}
	selected := config.Account{Kind: config.KindCodexCLI, WorkDir: t.TempDir(), Character: "luna", CodexAppServer: &hook}
	writeFile(t, filepath.Join(selected.WorkDir, ".codex", "config.toml"), []byte("[liplus]\noutput_style = \"luna\"\n"))
	if ws := FileWarnings(selected); !has(ws, "does not exist here") {
		t.Errorf("a selector, no folder: %v", ws)
	}
	styles := filepath.Join(work, ".codex", "output-styles")
	if err := os.MkdirAll(styles, 0o755); err != nil {
		t.Fatal(err)
	}
	if ws := FileWarnings(codex); !has(ws, "luna.md does not exist") {
		t.Errorf("no file: %v", ws)
	}
	writeFile(t, filepath.Join(styles, "luna.md"), []byte(" \n"))
	if ws := FileWarnings(codex); !has(ws, "is empty") {
		t.Errorf("empty file: %v", ws)
	}
	writeFile(t, filepath.Join(styles, "luna.md"), []byte("---\nname: Luna\n---\nLuna.\n"))
	if ws := FileWarnings(codex); !has(ws, `names itself "Luna" (line 2)`) {
		t.Errorf("name differs: %v", ws)
	}
	writeFile(t, filepath.Join(styles, "luna.md"), []byte("---\nname: luna\n---\nLuna.\n"))
	if ws := FileWarnings(codex); len(ws) != 0 {
		t.Errorf("a good style warned: %v", ws)
	}
	codex.Character = ""
	if ws := FileWarnings(codex); !has(ws, "character_instance.md") {
		t.Errorf("no default style: %v", ws)
	}
	writeFile(t, filepath.Join(work, ".codex", "config.toml"), []byte("[liplus]\noutput_style = false\n"))
	if ws := FileWarnings(codex); len(ws) != 0 {
		t.Errorf("persona off, still warned: %v", ws)
	}
	writeFile(t, filepath.Join(work, ".codex", "config.toml"), []byte("[liplus]\noutput_style = \"luna\"\n"))
	if ws := FileWarnings(codex); len(ws) != 0 {
		t.Errorf("selector luna exists, still warned: %v", ws)
	}
	if ws := FileWarnings(config.Account{Kind: config.KindClaudeCode, WorkDir: work}); len(ws) != 0 {
		t.Errorf("Claude without a character warned: %v", ws)
	}
	claude := config.Account{Kind: config.KindClaudeCode, WorkDir: work, Character: "Lin"}
	if ws := FileWarnings(claude); len(ws) != 0 {
		t.Errorf("Claude without a file here (a user style perhaps) warned: %v", ws)
	}
	writeFile(t, filepath.Join(work, ".claude", "output-styles", "Lin.md"), []byte("---\nname: Claude Lin\n---\n"))
	if ws := FileWarnings(claude); !has(ws, "Claude selects a style by its name:") {
		t.Errorf("Claude name differs: %v", ws)
	}
	env := map[string]string{"HOME": t.TempDir()}
	if w := ClaudeStyleWarning(claude, func(k string) string { return env[k] }); !strings.Contains(w, "finds no output style") {
		t.Errorf("Claude style not found: %q", w)
	}
	claude.Character = "Claude Lin"
	if w := ClaudeStyleWarning(claude, func(k string) string { return env[k] }); w != "" {
		t.Errorf("found style warned: %q", w)
	}
}

func TestCreateWorkDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := CreateWorkDir(dir); err != nil || CheckWorkDir(dir) != nil {
		t.Fatalf("CreateWorkDir: %v", err)
	}
	if err := CreateWorkDir("rel"); !errors.Is(err, launch.ErrNoWorkDir) {
		t.Fatalf("relative: %v", err)
	}
	file := filepath.Join(t.TempDir(), "f")
	writeFile(t, file, nil)
	if err := CreateWorkDir(file); err == nil {
		t.Fatalf("a file made a working directory")
	}
}

// statOrNil is the file at p, nil when it cannot be read.
func statOrNil(t *testing.T, p string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		return nil
	}
	return fi
}

// TestAppServerCharacterWarnings: an app-server Codex seat reads the style
// file itself, so only the file counts: missing refuses the start, no body
// starts without a character, a good file says nothing; in a project
// without the styles folder (inline, #276) no file is looked for.
func TestAppServerCharacterWarnings(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	a := config.Account{Kind: config.KindCodexCLI, WorkDir: work, Character: "luna"}
	if ws := FileWarnings(a); len(ws) != 0 {
		t.Errorf("an inline project (#276), no file read: %q", ws)
	}
	dir := filepath.Join(work, ".codex", "output-styles")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if ws := FileWarnings(a); len(ws) != 1 || !strings.Contains(ws[0], "will not start") {
		t.Errorf("missing file: %q", ws)
	}
	if err := os.WriteFile(filepath.Join(dir, "luna.md"), []byte("---\nname: luna\n---\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ws := FileWarnings(a); len(ws) != 1 || !strings.Contains(ws[0], "no body") {
		t.Errorf("frontmatter only: %q", ws)
	}
	if err := os.WriteFile(filepath.Join(dir, "luna.md"), []byte("---\nname: other\n---\nYou are Luna.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ws := FileWarnings(a); len(ws) != 0 {
		t.Errorf("a good file: %q", ws)
	}
}

// TestStripFrontmatter: the character's body without a leading YAML
// frontmatter; text without a closed one is kept whole.
func TestStripFrontmatter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"---\nname: Lin\ndescription: quiet\n---\nLin speaks softly.\n", "Lin speaks softly.\n"},
		{"---\nname: Lin\n---\n\n\nbody\n\nmore", "body\n\nmore"},
		{"---\nname: Lin\n---", ""},
		{"---\nname: Lin\n---\r\nbody", "body"},
		{"no frontmatter\n---\nx", "no frontmatter\n---\nx"},
		{"---\nname: Lin\nnever closed", "---\nname: Lin\nnever closed"},
		{"---\nname: Lin\n---more\nbody", "---\nname: Lin\n---more\nbody"},
		{" ---\nname: Lin\n---\nbody", " ---\nname: Lin\n---\nbody"},
		{"---\na: 1\n---\nbody\n---\nnot front\n---\n", "body\n---\nnot front\n---\n"},
		{"", ""},
		{"plain body", "plain body"},
	} {
		if got := StripFrontmatter(tc.in); got != tc.want {
			t.Errorf("StripFrontmatter(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// The frontmatter frontmatterName reads is the one stripped.
	text := "---\nname: Lin\n---\nbody"
	if name, _ := frontmatterName(text); name != "Lin" || StripFrontmatter(text) != "body" {
		t.Errorf("frontmatterName %q, body %q", name, StripFrontmatter(text))
	}
}

// TestAccountVia: how an account's character travels follows its kind
// and, for Codex, its mode: the environment in hook mode, the
// conversation's developer instructions in app-server mode (the default),
// selected from the user's own when the project selects inline (#276).
func TestAccountVia(t *testing.T) {
	t.Parallel()
	off := false
	for _, tc := range []struct {
		a    config.Account
		want string
	}{
		{config.Account{Kind: config.KindClaudeCode}, ViaOutputStyle},
		{config.Account{Kind: config.KindCodexCLI}, ViaInstructions},
		{config.Account{Kind: config.KindCodexCLI, WorkDir: t.TempDir()}, ViaInline},
		{config.Account{Kind: config.KindCodexCLI, WorkDir: t.TempDir(), CodexAppServer: &off}, ViaEnv},
		{config.Account{Kind: config.KindCodexCLI, CodexAppServer: &off}, ViaEnv},
		{config.Account{Kind: config.KindCLI}, ""},
	} {
		if got := AccountVia(tc.a); got != tc.want {
			t.Errorf("AccountVia(%s, app-server %v) = %q, want %q", tc.a.Kind, tc.a.AppServer(), got, tc.want)
		}
	}
}
