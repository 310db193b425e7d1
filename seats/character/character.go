package character

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/launch"
)

// EnvOutputStyle is the variable a Codex seat's character travels in
// (#281): Li+'s output-style hook reads it. The app owns it: an account's
// env may not set it, and a seat without a character does not inherit it.
const EnvOutputStyle = "LI_PLUS_OUTPUT_STYLE"

// MaxBytes bounds a character body: the Li+ loader's cap, the
// same for both kinds (spec «キャラクターの本文はアカウントの窓で直す»).
const MaxBytes = 128 << 10

// maxCodexCharacter is the longest Codex character name (#281).
const maxCodexCharacter = 128

// stylesDirName is the folder both CLIs' styles live in, under .claude or .codex.
const stylesDirName = "output-styles"

// The CLIs' folders in a working directory (and, for Claude, its user
// folder's name under the home folder).
const (
	claudeFolder = ".claude"
	codexFolder  = ".codex"
)

// Ways a character reaches its CLI (Via).
const (
	ViaOutputStyle = "outputStyle"  // Claude Code: --settings '{"outputStyle": …}'
	ViaEnv         = EnvOutputStyle // Codex CLI: the seat's environment (#281 hook mode)
	// ViaInstructions: an app-server Codex seat gets the style's body in
	// its conversation's developer instructions (thread/start and
	// thread/resume), never in its environment (spec #299, #303).
	ViaInstructions = "developerInstructions"
	// ViaInline: an app-server Codex seat in a project without Li+'s style
	// files gets its heading's block of the user's own developer_instructions,
	// the other characters' blocks removed (#276, SelectInline).
	ViaInline = "inline"
)

// OwnsEnv reports whether kind k's character field owns the variable
// name (LI_PLUS_OUTPUT_STYLE for Codex, compared case-insensitively as
// Windows does): an account's env may not set it (ErrEnvAppOwned).
func OwnsEnv(k config.Kind, name string) bool {
	return Via(k) == ViaEnv && strings.EqualFold(name, EnvOutputStyle)
}

// Via says how kind k's seats get the account's character: "" for
// kinds that have none (generic CLIs, admin, mcp).
func Via(k config.Kind) string {
	switch k {
	case config.KindClaudeCode:
		return ViaOutputStyle
	case config.KindCodexCLI:
		return ViaEnv
	}
	return ""
}

// AccountVia says how account a's seats get its character: Via of its
// kind, but for a Codex account in app-server mode ViaInstructions, or
// ViaInline when its project selects inline (CodexInline: it reads the
// working directory). The editor says which under the launch line.
func AccountVia(a config.Account) string {
	if a.AppServer() {
		if filepath.IsAbs(a.WorkDir) && codexInlineHere(a.WorkDir) {
			return ViaInline
		}
		return ViaInstructions
	}
	return Via(a.Kind)
}

// CheckAccountName is CheckName for account a: an app-server Codex account
// whose project selects inline (AccountVia ViaInline) names a heading
// (CheckInlineName), any other one a file. "" passes.
func CheckAccountName(a config.Account) error {
	name := strings.TrimSpace(a.Character)
	if name != "" && a.Kind == config.KindCodexCLI && AccountVia(a) == ViaInline {
		return CheckInlineName(name)
	}
	return CheckName(a.Kind, name)
}

// characterHome is the CLI folder of kind k's styles (.claude, .codex).
func characterHome(k config.Kind) string {
	switch k {
	case config.KindClaudeCode:
		return claudeFolder
	case config.KindCodexCLI:
		return codexFolder
	}
	return ""
}

// CheckCodexName applies #281's grammar: an ASCII letter or digit,
// then letters, digits, "_" and "-", at most 128 (case-sensitive). Errors
// wrap ErrName.
func CheckCodexName(name string) error {
	if name == "" || len(name) > maxCodexCharacter {
		return fmt.Errorf("%w: %q: 1 to %d characters (Codex)", ErrName, name, maxCodexCharacter)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '_' && c != '-') {
			return fmt.Errorf("%w: %q: an ASCII letter or digit first, then letters, digits, _ and - (Codex)", ErrName, name)
		}
	}
	return nil
}

// windowsReserved are device names Windows refuses as a file name, with or
// without an extension (CON.md is the console).
var windowsReserved = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true,
	"COM0": true, "COM1": true, "COM2": true, "COM3": true, "COM4": true, "COM5": true, "COM6": true, "COM7": true, "COM8": true, "COM9": true,
	"COM¹": true, "COM²": true, "COM³": true,
	"LPT0": true, "LPT1": true, "LPT2": true, "LPT3": true, "LPT4": true, "LPT5": true, "LPT6": true, "LPT7": true, "LPT8": true, "LPT9": true,
	"LPT¹": true, "LPT²": true, "LPT³": true,
}

// maxCharacterFileName bounds the name so <name>.md fits a file name (255
// bytes on the common file systems).
const maxCharacterFileName = 255 - len(".md")

// CheckName says whether name (trimmed, as the launch uses it)
// can name kind k's body file <name>.md (spec: a plain file name — no
// separator, not . or .., nothing Windows forbids or reserves — and for
// Codex #281's grammar). "" is no character and passes. Errors wrap
// ErrName.
func CheckName(k config.Kind, name string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	if k == config.KindCodexCLI {
		return CheckCodexName(name)
	}
	bad := func(why string) error { return fmt.Errorf("%w: %q %s", ErrName, name, why) }
	switch {
	case name == "." || name == "..":
		return bad("is not a file name")
	case len(name) > maxCharacterFileName:
		return bad(fmt.Sprintf("is longer than %d bytes", maxCharacterFileName))
	case strings.HasSuffix(name, "."):
		return bad("ends in a dot (Windows drops it from a file name)")
	}
	for _, r := range name {
		switch {
		case r == '/' || r == '\\':
			return bad("holds a path separator")
		case r < 0x20 || r == 0x7f:
			return bad("holds a control character")
		case strings.ContainsRune(`<>:"|?*`, r):
			return bad(fmt.Sprintf("holds %q, which Windows forbids in a file name", r))
		}
	}
	base, _, _ := strings.Cut(name, ".")
	if windowsReserved[strings.ToUpper(strings.TrimRight(base, " "))] {
		return bad("is a device name Windows reserves")
	}
	return nil
}

// Rel is kind k's body file for name relative to the working
// directory: <.claude|.codex>/output-styles/<name>.md. Errors wrap
// ErrName (a kind without characters, or a bad name).
func Rel(k config.Kind, name string) (string, error) {
	home := characterHome(k)
	if home == "" {
		return "", fmt.Errorf("%w: %s accounts have no character", ErrName, k)
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return "", fmt.Errorf("%w: no character named", ErrName)
	}
	if err := CheckName(k, name); err != nil {
		return "", err
	}
	return filepath.Join(home, stylesDirName, name+".md"), nil
}

// stylesRel is kind k's styles folder relative to the working directory.
func stylesRel(k config.Kind) string {
	return filepath.Join(characterHome(k), stylesDirName)
}

// CheckWorkDir says whether dir can be a seat's working directory: an
// absolute path of an existing directory. Errors wrap ErrNoWorkDir (empty
// or relative), ErrWorkDirMissing or ErrWorkDirNotDir.
func CheckWorkDir(dir string) error {
	switch {
	case strings.TrimSpace(dir) == "":
		return launch.ErrNoWorkDir
	case !filepath.IsAbs(dir):
		return fmt.Errorf("%w: %q is not an absolute path", launch.ErrNoWorkDir, dir)
	}
	fi, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		return fmt.Errorf("%w: %s", ErrWorkDirMissing, dir)
	case err != nil:
		return fmt.Errorf("working directory %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("%w: %s", ErrWorkDirNotDir, dir)
	}
	return nil
}

// Wearers names the other accounts whose character is the same
// body file as kind k's character name in workDir (spec: saving it changes
// their character too). Only accounts that name a character count: an
// empty one wears the folder's default, which this does not resolve. The
// same file is the same path, or — when both exist — the same file through
// links (a shared working directory reached by two paths).
func Wearers(k config.Kind, workDir, name, selfID string, accounts []config.Account) []string {
	rel, err := Rel(k, name)
	if err != nil || !filepath.IsAbs(workDir) {
		return nil
	}
	path := filepath.Join(workDir, rel)
	fi, statErr := os.Stat(path)
	var out []string
	for _, a := range accounts {
		if a.ID == selfID || characterHome(a.Kind) != characterHome(k) || !filepath.IsAbs(a.WorkDir) {
			continue
		}
		r, err := Rel(a.Kind, a.Character)
		if err != nil {
			continue
		}
		other := filepath.Join(a.WorkDir, r)
		same := filepath.Clean(other) == filepath.Clean(path)
		if !same && statErr == nil {
			if ofi, err := os.Stat(other); err == nil {
				same = os.SameFile(fi, ofi)
			}
		}
		if same {
			out = append(out, a.DisplayName())
		}
	}
	return out
}

// ClaudeStyleWarning says when a Claude Code account's character names no
// style its CLI would find (ListStyles in the environment getenv gives):
// the seat then starts with the default style. "" when it is found, or for
// no character or another kind.
func ClaudeStyleWarning(a config.Account, getenv func(string) string) string {
	name := strings.TrimSpace(a.Character)
	if a.Kind != config.KindClaudeCode || name == "" || CheckWorkDir(a.WorkDir) != nil {
		return ""
	}
	styles, err := ListStyles(a.Kind, a.WorkDir, getenv)
	if err != nil {
		return ""
	}
	for _, s := range styles {
		if s.Name == name {
			return ""
		}
	}
	return fmt.Sprintf("character %q: Claude Code finds no output style of that name in the project's or the user's output-styles folders; the seat starts with the default style", name)
}

// CreateWorkDir makes dir, an absolute path, and its missing parents for a
// seat's working directory (the editor offers it for a directory that does
// not exist). Errors wrap ErrNoWorkDir, ErrWorkDirNotDir or the OS's.
func CreateWorkDir(dir string) error {
	if strings.TrimSpace(dir) == "" || !filepath.IsAbs(dir) {
		return fmt.Errorf("%w: %q is not an absolute path", launch.ErrNoWorkDir, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create working directory: %w", err)
	}
	return CheckWorkDir(dir)
}
