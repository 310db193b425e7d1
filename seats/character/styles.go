package character

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli/claude"
	"github.com/pullcept/pullcept/seats/launch"
)

// Style is an output style a CLI would find (ListStyles).
type Style struct {
	// Name is what the account's character field names it by: for Claude
	// the frontmatter name:, else the file name without .md (as Claude
	// Code 2.1.328 reads it); for Codex the file name without .md (#281).
	Name string
	// Path is the file; Scope says where it was found.
	Path  string
	Scope StyleScope
}

// StyleScope is where a style file was found.
type StyleScope int

// Style scopes, in the order ListStyles returns them.
const (
	// ScopeProject: the working directory's .claude/output-styles (or
	// .codex/output-styles), or for Claude a parent's up to the repository
	// root.
	ScopeProject StyleScope = iota
	// ScopeUser: Claude's user folder, <CLAUDE_CONFIG_DIR or ~/.claude>/output-styles.
	ScopeUser
)

// maxStyleFiles bounds the files read from one styles folder.
const maxStyleFiles = 500

// ListStyles lists the styles kind k's CLI would find for a seat in workDir
// (spec «アカウントはキャラクターを持つ»), in the environment getenv gives
// (pass SeatGetenv so an account's own CLAUDE_CONFIG_DIR counts):
//
//   - Claude Code: .claude/output-styles/*.md of the working directory and
//     of each parent up to the repository root (a folder holding .git),
//     never the home folder itself, then the user folder
//     <CLAUDE_CONFIG_DIR or ~/.claude>/output-styles — where Claude Code
//     2.1.328 looks (its loader walks the same way; plugin and built-in
//     styles are not listed);
//   - Codex CLI: .codex/output-styles/*.md of the working directory, each by
//     its file name when it fits #281's grammar.
//
// Folders that do not exist are skipped; a file that cannot be read is
// listed by its file name. Files are read as regular files of at most
// MaxBytes (a folder may hold anything: a FIFO is not waited on).
func ListStyles(k config.Kind, workDir string, getenv func(string) string) ([]Style, error) {
	if !filepath.IsAbs(workDir) {
		return nil, fmt.Errorf("%w: %q is not an absolute path", launch.ErrNoWorkDir, workDir)
	}
	var out []Style
	switch k {
	case config.KindClaudeCode:
		home, _ := launch.HomeDir(getenv)
		for _, d := range claudeProjectDirs(workDir, home) {
			out = append(out, stylesIn(filepath.Join(d, claudeFolder, stylesDirName), ScopeProject, true)...)
		}
		if cfg, err := claude.ConfigDir(getenv, workDir); err == nil {
			out = append(out, stylesIn(filepath.Join(cfg, stylesDirName), ScopeUser, true)...)
		}
	case config.KindCodexCLI:
		for _, s := range stylesIn(filepath.Join(workDir, codexFolder, stylesDirName), ScopeProject, false) {
			if CheckCodexName(s.Name) == nil {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// claudeProjectDirs are the folders whose .claude Claude Code reads for a
// session in dir: dir, then each parent, stopping before home and after the
// first folder that holds .git.
func claudeProjectDirs(dir, home string) []string {
	var out []string
	for d := filepath.Clean(dir); ; {
		if home != "" && d == filepath.Clean(home) {
			break
		}
		out = append(out, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return out
}

// stylesIn lists folder's *.md styles sorted by name; byFront names a
// style by its frontmatter name: when it has one.
func stylesIn(folder string, scope StyleScope, byFront bool) []Style {
	entries, err := os.ReadDir(folder)
	if err != nil {
		return nil
	}
	var out []Style
	for _, e := range entries {
		if len(out) >= maxStyleFiles {
			break
		}
		stem, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || stem == "" || e.IsDir() {
			continue
		}
		path := filepath.Join(folder, e.Name())
		s := Style{Name: stem, Path: path, Scope: scope}
		if byFront {
			if data, err := config.ReadRegularFile(path, MaxBytes, true); err == nil {
				if cf, err := decodeCharacter(data); err == nil && cf.FrontName != "" {
					s.Name = cf.FrontName
				}
			}
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// FileWarnings are what can be checked of account a's character
// without running the CLI, as launch warnings (the seat still starts):
//
//   - Codex: without Li+'s Python helper the loader's own validation
//     (resolve, protocol, handler trust) cannot run here, and the project
//     root Li+ reads may be a parent of the working directory, so a body
//     not found under the working directory is a warning, not a refusal.
//     Checked: the style folder exists; the body file exists there, stays
//     inside the folder through links, is a non-empty UTF-8 regular file
//     of at most 128 KiB whose frontmatter name: (if any) is the file's
//     name; with no character, that the folder's default
//     (character_instance.md, or [liplus] output_style in
//     .codex/config.toml) is there.
//   - Claude Code: the body file, when the working directory holds one
//     under the character's name, names itself the same in its frontmatter.
func FileWarnings(a config.Account) []string {
	if Via(a.Kind) == "" || CheckWorkDir(a.WorkDir) != nil {
		return nil
	}
	name := strings.TrimSpace(a.Character)
	switch {
	case name == "" && a.Kind == config.KindCodexCLI:
		return codexDefaultWarnings(a.WorkDir)
	case name != "" && a.Kind == config.KindCodexCLI && codexInlineHere(a.WorkDir):
		// No file is read: the launch line refuses or names the heading (#276).
		return nil
	case name == "" || CheckName(a.Kind, name) != nil:
		return nil
	case a.AppServer():
		return appServerCharacterWarnings(a.WorkDir, name)
	}
	cf, err := Open(a.Kind, a.WorkDir, name)
	var out []string
	switch {
	case err != nil:
		out = append(out, fmt.Sprintf("character %q: %v", name, err))
	case a.Kind != config.KindCodexCLI:
	case !cf.FolderExists:
		out = append(out, fmt.Sprintf("character %q: %s does not exist here, so Li+ finds the style only if its project root (a parent folder) has one", name, filepath.Join(a.WorkDir, stylesRel(a.Kind))))
	case !cf.Exists:
		out = append(out, fmt.Sprintf("character %q: %s does not exist; Li+'s hook stops the seat's character unless its project root has it", name, cf.Path))
	case strings.TrimSpace(cf.Text) == "":
		out = append(out, fmt.Sprintf("character %q: %s is empty; Li+ refuses an empty style", name, cf.Path))
	}
	if err == nil && cf.FrontName != "" && cf.FrontName != name {
		out = append(out, fmt.Sprintf("character %q: %s names itself %q (line %d): %s", name, cf.Path, cf.FrontName, cf.FrontLine, frontNameEffect(a.Kind)))
	}
	return out
}

// codexInlineHere: CodexInline, false when it cannot tell (the launch
// says why).
func codexInlineHere(workDir string) bool {
	inline, err := CodexInline(workDir)
	return err == nil && inline
}

// appServerCharacterWarnings: an app-server Codex seat sends the style
// file's body itself (seats/cli/codex), so only the file counts.
func appServerCharacterWarnings(workDir, name string) []string {
	cf, err := Open(config.KindCodexCLI, workDir, name)
	switch {
	case err != nil:
		return []string{fmt.Sprintf("character %q: %v", name, err)}
	case !cf.Exists:
		return []string{fmt.Sprintf("character %q: %s does not exist: the seat will not start (app-server mode sends this file's body in the conversation's developer instructions)", name, cf.Path)}
	case strings.TrimSpace(StripFrontmatter(cf.Text)) == "":
		return []string{fmt.Sprintf("character %q: %s has no body: the seat starts without a character", name, cf.Path)}
	}
	return nil
}

// frontNameEffect is what a frontmatter name: other than the character
// does to kind k's CLI.
func frontNameEffect(k config.Kind) string {
	if k == config.KindCodexCLI {
		return "Li+'s helper stops the seat when name: and the file name differ"
	}
	return "Claude selects a style by its name:, so it will not find this one by the file's name"
}

// codexDefaultWarnings checks what a Codex seat without a character falls
// back to (#281): with .codex/output-styles present and no [liplus]
// output_style in the project's .codex/config.toml, character_instance.md.
func codexDefaultWarnings(workDir string) []string {
	folder := filepath.Join(workDir, codexFolder, stylesDirName)
	if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
		return nil
	}
	selector, err := liplusSelector(workDir)
	if err != nil {
		return []string{fmt.Sprintf("no character: cannot read .codex/config.toml: %v", err)}
	}
	if selector == "false" {
		return nil
	}
	style := "character_instance"
	if selector != "" {
		style = selector
	}
	if _, err := os.Stat(filepath.Join(folder, style+".md")); errors.Is(err, fs.ErrNotExist) {
		return []string{fmt.Sprintf("no character: %s exists, so Li+ uses its default style %s.md, which is not there", folder, style)}
	}
	return nil
}

// liplusSelector is [liplus] output_style of workDir's .codex/config.toml:
// a style name, "false" (persona off), or "" when unset or no file.
func liplusSelector(workDir string) (string, error) {
	data, err := config.ReadRegularFile(filepath.Join(workDir, codexFolder, "config.toml"), 1<<20, true)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var doc struct {
		LiPlus struct {
			OutputStyle any `toml:"output_style"`
		} `toml:"liplus"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return "", err
	}
	switch v := doc.LiPlus.OutputStyle.(type) {
	case string:
		return v, nil
	case bool:
		if !v {
			return "false", nil
		}
	}
	return "", nil
}

// StripFrontmatter drops a leading YAML frontmatter block (--- … ---).
func StripFrontmatter(text string) string {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return text
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return text
	}
	after := rest[end+4:]
	if after != "" && after[0] != '\n' && after[0] != '\r' {
		return text
	}
	return strings.TrimLeft(after, "\r\n")
}

// Warnings are the launch warnings about a's character: FileWarnings,
// and for Claude ClaudeStyleWarning in getenv's environment unless getenv
// is nil. They read the working directory.
func Warnings(a config.Account, getenv func(string) string) []string {
	out := FileWarnings(a)
	if getenv != nil {
		if w := ClaudeStyleWarning(a, getenv); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// PreviewWarnings are Warnings for the editor's preview, which opens no
// env value: a CLAUDE_CONFIG_DIR of the account's own is not known there,
// so the style lookup is left to the launch.
func PreviewWarnings(a config.Account, getenv func(string) string) []string {
	for _, v := range a.Env {
		if v.Name == claude.EnvConfigDir {
			getenv = nil
		}
	}
	return Warnings(a, getenv)
}
