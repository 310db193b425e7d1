package launch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/pty"
)

// Input is everything one launch line depends on (docs/design.md §9). The
// same input builds the editor's preview and the spawned line, so the two
// cannot differ.
type Input struct {
	// Account is the account to seat.
	Account config.Account
	// TopicID is the room (topic) the seat joins.
	TopicID string
	// SessionID is the recorded session id to resume; used only with Resume.
	SessionID string
	// Resume asks for the kind's resume line (decide with DecideResume).
	Resume bool
	// PullceptPath is the absolute path of our own executable (the sidecar
	// and the status-line command run it from any directory).
	PullceptPath string
	// RoomURL is the room's loopback WebSocket URL (ws://127.0.0.1:<port>…);
	// needed by Codex seats, whose room server travels on the command line.
	RoomURL string
	// HooksURL is the room listener's loopback HTTP base
	// (http://127.0.0.1:<port>); needed by Claude seats (status line, hooks).
	HooksURL string
	// RoomSocket is the room's Unix socket ("" where there is none): the
	// sidecar, the hooks and the status line connect there, where the
	// kernel names their process (docs/design.md §6 "Seat identity"). It
	// travels in the process environment (room.EnvRoomSocket).
	RoomSocket string
	// UnseenHistory marks a seat that joins a topic with posts it has not
	// seen (UnseenHistory); Codex seats carry it on the line, others in
	// .mcp.json (Register).
	UnseenHistory bool
	// MCPJSON is what the seat directory's .mcp.json holds (InspectMCPJSON
	// or Register); its Others become Claude's disabledMcpjsonServers. Nil
	// means no other entries.
	MCPJSON *State
	// AttachmentsDir is the topic's attachments folder: a Claude seat may
	// read it without asking (permissions.additionalDirectories), so an
	// attachment's path is enough in default permission mode too. Empty:
	// none.
	AttachmentsDir string
	// CommandPath is the command resolved on PATH, when the caller has it;
	// on Windows the cmd.exe check reads it (a PATH entry may hold what
	// cmd.exe reacts to). Empty means judge Account.Command.
	CommandPath string
	// Env is the account's env opened for this launch (NAME=value, from
	// config.OpenEnv; the Manager opens it before it claims the seat). nil
	// in a preview: a preview never carries a value.
	Env []string
	// Getenv looks a variable up in the environment Pullcept passes on to
	// the seat (the Manager's); nil means this process's (os.Getenv). With
	// Env over it, it is what the seat's CLI will see (Builder.Getenv).
	Getenv func(string) string
	// GOOS is the target OS ("" = runtime.GOOS); tests set it.
	GOOS string
	// NewID makes a fresh session id ("" result is an error); nil means a
	// random UUID v4. The editor's preview may return a marker instead.
	NewID func() (string, error)
}

// Launch is one seat's process as Build decided it.
type Launch struct {
	// Argv is the command and its arguments; Argv[0] is the command as
	// written (the spawner resolves it on PATH).
	Argv []string
	// Env is the extra process environment, NAME=value: the account's
	// variables, then PULLCEPT_LAUNCHED_AS and PULLCEPT_ROOM_ID, and for a
	// Codex seat with a character LI_PLUS_OUTPUT_STYLE (#281). The caller
	// adds PULLCEPT_ROOM_TOKEN at spawn; it is never here.
	Env []string
	// Unset names variables the seat must not inherit from Pullcept's
	// environment (a Codex seat's LI_PLUS_OUTPUT_STYLE: without a character
	// the project's default applies, never an inherited override).
	Unset []string
	// Dir is the working directory: the process's.
	Dir string
	// CLIDir is the directory the CLI works in when its options move it
	// away from Dir (Codex's -C/--cd, resolved); "" = Dir. Where the
	// CLI's files for that directory are found (WorkingDir).
	CLIDir string
	// SessionID is the id this launch uses: a fresh Claude seat's new id, a
	// generic CLI's substituted {session_id}, or the resumed id. "" when the
	// line hands out none (a fresh Codex seat: read it later from the
	// rollout, codex.RolloutsSince).
	SessionID string
	// Resumed is true when Argv is the kind's resume line.
	Resumed bool
	// MCPKey is the seat's .mcp.json / Codex server key.
	MCPKey string
	// MCPCreated: the launch created <Dir>/.mcp.json (Unregister removes
	// it again when nothing else is left in it).
	MCPCreated bool
	// Preview is Argv as one shell-quoted line for display; it never holds
	// an env value or the token (they are not in Argv).
	Preview string
	// Warnings say what the line leaves out or changed and why (a stripped
	// --session-id, dropped options, a status line not added).
	Warnings []string
	// Server is the server half of a seat whose CLI runs as a server and a
	// terminal attached to it (an app-server Codex seat; nil for every
	// other seat): Argv is then the terminal's line, with words the start
	// fills in (the port, a fresh conversation's id).
	Server Server
}

// WorkingDir is the directory the CLI works in: CLIDir, else Dir.
func (l *Launch) WorkingDir() string {
	if l.CLIDir != "" {
		return l.CLIDir
	}
	return l.Dir
}

// Server is a launch's server half as its kind planned it (Launch.Server).
type Server interface {
	// ServerLine is the server's command line.
	ServerLine() []string
	// Describe is what the conversation is asked to run with, beyond both
	// lines, for the preview ("" when nothing is).
	Describe() string
}

// Kind is one CLI kind's part of a launch (docs/design.md §9): whether it
// finds the room in its working directory's .mcp.json, and its line.
// The seat kinds' adapters implement it (seats/cli.Adapter).
type Kind interface {
	// ReadsMCPJSON reports whether the CLI finds the room in its working
	// directory's .mcp.json (Prepare registers the seat's entry there).
	ReadsMCPJSON() bool
	// Line builds the command line from the account's launch options
	// (already split, and emptied when cmd.exe could not take them). It
	// reads b.In, may record warnings (b.Warn), environment (b.SetEnv,
	// b.Unset) and a server half (b.Server). {session_id} in what it
	// returns is substituted after it.
	Line(b *Builder, opts []string) ([]string, error)
}

// RoomPrompt is the sentence a fresh Claude seat gets with
// --append-system-prompt (docs/design.md §9, «席は部屋の道具の名を起動時に受け取る»):
// the full name of its say_to_room tool (usable before the tool list
// arrives), that terminal output reaches nobody, and where the room's
// etiquette lives. Plain ASCII without punctuation cmd.exe or a shell could
// read, so it rides any command line unchanged.
func RoomPrompt(key string) string {
	return "You are a seat in a Pullcept chat room. Speak to the room only by calling the tool " +
		ToolName(key, room.ToolSayToRoom) + " - call it by that name even before your tool list shows it. " +
		"Your terminal output reaches nobody. The room etiquette is in the instructions of the MCP server " +
		key + " - follow them once they arrive."
}

// Build builds the one line a seat of kind k runs (docs/design.md §9;
// the editor previews the same Launch): the checks every kind shares, the
// account's environment, the launch options split, then k's Line.
//
// {session_id} is substituted once, after the line is built: a fresh id
// (recorded as Launch.SessionID) or the resumed one. On Windows, when the
// line goes through cmd.exe (ViaCmdExe), options holding a character
// cmd.exe reacts to are dropped as a whole (warning), and everything Pullcept
// writes into JSON or TOML is escaped so cmd.exe sees none of them.
//
// Refusals wrap: ErrKindNotLaunched, ErrNoWorkDir, ErrNoCommand, ErrNoTopic,
// pty.ErrNotConsoleSafe, ErrNoSessionID, ErrPlaceholder,
// config.ErrEnvReserved, config.ErrEnvSyntax, config.ErrUnterminatedQuote,
// and those of k's Line. Build writes no file; a kind's Line may look at
// the files its options name (Codex's -C directory and -p profile) and the
// project's .codex (to tell how a Codex seat selects characters).
func Build(in Input, k Kind) (Launch, error) {
	a := in.Account
	switch {
	case !a.Kind.Launches() || k == nil:
		return Launch{}, fmt.Errorf("%w: %q is %s", ErrKindNotLaunched, a.DisplayName(), a.Kind)
	case strings.TrimSpace(a.WorkDir) == "":
		return Launch{}, fmt.Errorf("%w: set one for %q", ErrNoWorkDir, a.DisplayName())
	case !filepath.IsAbs(a.WorkDir):
		return Launch{}, fmt.Errorf("%w: %q is not an absolute path", ErrNoWorkDir, a.WorkDir)
	case strings.TrimSpace(a.Command) == "":
		return Launch{}, fmt.Errorf("%w: set one for %q", ErrNoCommand, a.DisplayName())
	case in.TopicID == "":
		return Launch{}, ErrNoTopic
	case in.Resume && in.SessionID == "":
		return Launch{}, ErrNoSessionID
	}
	b := &Builder{In: in, GOOS: in.GOOS, Key: MCPKey(a.ID, in.TopicID)}
	if b.GOOS == "" {
		b.GOOS = runtime.GOOS
	}
	cmd := in.CommandPath
	if cmd == "" {
		cmd = a.Command
	}
	b.ViaCmd = ViaCmdExe(b.GOOS)
	if b.ViaCmd && !commandSafe(cmd) {
		return Launch{}, fmt.Errorf("%w: command %q holds one of %s (cmd.exe would run only part of the line)", pty.ErrNotConsoleSafe, cmd, pty.CmdReactive)
	}
	env, err := processEnv(a, in.Env, in.TopicID, in.RoomSocket)
	if err != nil {
		return Launch{}, err
	}
	b.env = env
	opts, err := config.SplitWords(a.LaunchOptions)
	if err != nil {
		return Launch{}, fmt.Errorf("launch options: %w", err)
	}
	if b.ViaCmd && !AllConsoleSafe(opts) {
		b.Warn("launch options left out: on Windows this line goes through cmd.exe, which cuts a line at %s; the seat starts without them", pty.CmdReactive)
		opts = nil
	}
	argv, err := k.Line(b, opts)
	if err != nil {
		return Launch{}, err
	}
	l := Launch{Argv: argv, Env: b.env, Unset: b.unset, Dir: a.WorkDir, CLIDir: b.CLIDir, Resumed: in.Resume, MCPKey: b.Key, Warnings: b.warnings, Server: b.Server}
	if err := l.fillSessionID(in); err != nil {
		return Launch{}, err
	}
	l.Preview = config.JoinWords(l.Argv)
	if b.Server != nil {
		l.Preview = "app-server: " + config.JoinWords(b.Server.ServerLine()) + "\nterminal: " + l.Preview
		if c := b.Server.Describe(); c != "" {
			// Settings that go to the conversation are on neither line.
			l.Preview += "\nconversation: " + c
		}
	}
	return l, nil
}

// fillSessionID sets the session id the line uses and substitutes
// {session_id} once, after the line is built (Build): the resumed id
// (only when it is a plain id: a recorded id comes from a file a seat can
// write), or a fresh one.
func (l *Launch) fillSessionID(in Input) error {
	if in.Resume {
		if !LineSafeWord(in.SessionID) {
			return fmt.Errorf("%w: the recorded session id %q is not a plain id", ErrNoSessionID, in.SessionID)
		}
		l.SessionID = in.SessionID
	}
	if !HasPlaceholder(l.Argv) {
		return nil
	}
	if !in.Resume {
		id, err := newID(in.NewID)
		if err != nil {
			return err
		}
		l.SessionID = id
	}
	for i, w := range l.Argv {
		l.Argv[i] = strings.ReplaceAll(w, config.SessionIDPlaceholder, l.SessionID)
	}
	return nil
}

// Prepare is Build with the seat directory's .mcp.json handled in
// the order docs/design.md §9 needs, for kinds that read it (Kind.ReadsMCPJSON):
// it reads the file (in.MCPJSON is replaced by what it holds), builds the
// line (a refusal writes nothing, so no entry of a refused seat is left
// behind), then registers the seat's entry with in.RoomURL and
// in.UnseenHistory. When .claude/settings.local.json disables the seat's key
// (a past "continue without" answer), a warning says so; the file is never
// edited. Errors are Build's, InspectMCPJSON's and Register's.
func Prepare(in Input, k Kind) (Launch, error) {
	a := in.Account
	if !k.ReadsMCPJSON() || strings.TrimSpace(a.WorkDir) == "" || !filepath.IsAbs(a.WorkDir) {
		return Build(in, k)
	}
	key := MCPKey(a.ID, in.TopicID)
	if err := CheckLoopback(in.RoomURL, "ws"); err != nil {
		return Launch{}, err
	}
	st, err := InspectMCPJSON(a.WorkDir, key, in.RoomURL)
	if err != nil {
		return Launch{}, err
	}
	in.MCPJSON = &st
	l, err := Build(in, k)
	if err != nil {
		return Launch{}, err
	}
	reg, err := Register(a.WorkDir, EntryFor(a, in.TopicID, in.PullceptPath, in.UnseenHistory), in.RoomURL)
	if err != nil {
		return Launch{}, err
	}
	l.MCPCreated = reg.Created
	off, err := CheckDisabled(a.WorkDir, key)
	if err != nil {
		l.Warnings = append(l.Warnings, fmt.Sprintf("could not check .claude/settings.local.json: %v", err))
	} else if off {
		l.Warnings = append(l.Warnings, fmt.Sprintf("the seat cannot reach the room because .claude/settings.local.json disables %s (a past 'continue without' answer); remove it there", key))
	}
	return l, nil
}

// Builder holds one Build's derived facts for its Kind's Line: the input
// (In), the target OS (GOOS), whether the line goes through cmd.exe
// (ViaCmd), the seat's .mcp.json / server key (Key), and what the Line
// records: warnings, environment, the server half (Server) and the
// CLI's own directory (CLIDir).
type Builder struct {
	In     Input
	GOOS   string
	ViaCmd bool
	Key    string
	Server Server // the launch's server half (Launch.Server), set by a Line
	CLIDir string // Launch.CLIDir, set by a Line whose options move the CLI

	warnings []string
	env      []string // Launch.Env
	unset    []string // Launch.Unset
}

// Warn records why the line leaves something out or changed it.
func (b *Builder) Warn(format string, args ...any) {
	b.warnings = append(b.warnings, fmt.Sprintf(format, args...))
}

// SetEnv adds NAME=value to the launch's environment (Launch.Env).
func (b *Builder) SetEnv(kv string) { b.env = append(b.env, kv) }

// Unset names a variable the seat must not inherit (Launch.Unset).
func (b *Builder) Unset(name string) { b.unset = append(b.unset, name) }

// Getenv looks name up in the environment the seat's CLI will see: the
// account's opened env over In.Getenv (SeatGetenv).
func (b *Builder) Getenv(name string) string {
	base := b.In.Getenv
	if base == nil {
		base = os.Getenv
	}
	return SeatGetenv(b.In.Env, base)(name)
}

// EnvUnknown reports a variable the account's own env sets whose value
// this build does not have: the editor's preview opens no value, so what
// depends on it is left to the launch.
func (b *Builder) EnvUnknown(name string) bool {
	for _, v := range b.In.Account.Env {
		if v.Name == name {
			prefix := name + "="
			return !slices.ContainsFunc(b.In.Env, func(kv string) bool { return strings.HasPrefix(kv, prefix) })
		}
	}
	return false
}

// ViaCmdExe reports whether a launch on goos runs through cmd.exe: every
// Windows launch does (`cmd.exe /S /C "<line>"`, spec «起動とアカウント»: an
// npm launcher is a .cmd script, and one rule for every command keeps the
// line checks the same for all). Other OSes never use cmd.exe.
func ViaCmdExe(goos string) bool { return goos == "windows" }

// ResolveCommand is the file a bare command name runs: looked up on PATH
// the way the spawn looks it up (on Windows with PATHEXT, so "claude" is
// npm's claude.cmd). A path, or a name not found, gives "": the launch then
// judges the command as written, and the spawn reports a missing one. The
// resolved file decides whether the line goes through cmd.exe and is what
// the console-safe check reads (a claude.cmd under "Program Files (x86)"
// would be cut by cmd.exe at its parenthesis).
func ResolveCommand(command string) string {
	if command == "" || strings.ContainsAny(command, `/\:`) {
		return ""
	}
	path, err := exec.LookPath(command)
	if err != nil {
		return ""
	}
	return path
}

// ConsoleSafe reports a word cmd.exe passes untouched: none of pty.CmdReactive
// and no control character (a line break ends the line).
func ConsoleSafe(w string) bool {
	for _, r := range w {
		if r < 0x20 || r == 0x7f || strings.ContainsRune("&|<>^()%", r) {
			return false
		}
	}
	return true
}

// commandSafe judges the command as cmd.exe reads its word: ConsoleSafe,
// or — for a program other than a batch script — a path with a space,
// which goes on the line quoted whole, so & | < > ^ ( ) inside it are text
// (C:\Program Files (x86)\…\claude.exe). A .cmd or .bat stays strict: npm's
// launchers expand their own path inside parenthesised blocks.
func commandSafe(cmd string) bool {
	if ConsoleSafe(cmd) {
		return true
	}
	ext := strings.ToLower(filepath.Ext(cmd))
	if ext == ".cmd" || ext == ".bat" || !strings.ContainsAny(cmd, " \t") {
		return false
	}
	for _, r := range cmd {
		if r < 0x20 || r == 0x7f || r == '%' || r == '"' {
			return false
		}
	}
	return true
}

// AllConsoleSafe reports whether every word is ConsoleSafe.
func AllConsoleSafe(words []string) bool {
	for _, w := range words {
		if !ConsoleSafe(w) {
			return false
		}
	}
	return true
}

// LineSafeWord: ASCII letters, digits and / : . _ - only (spec line_safe_word).
func LineSafeWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !lineSafeByte(w[i]) {
			return false
		}
	}
	return true
}

func lineSafeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("/:._-", c) >= 0
}

// LineSafeText: LineSafeWord plus the space (spec line_safe_text), for
// contents of one quoted argument.
func LineSafeText(r rune) bool {
	return r == ' ' || r < utf8.RuneSelf && lineSafeByte(byte(r))
}

// EncodeJSON marshals v; on a cmd.exe line every byte outside the line-safe
// set (and outside JSON's own structure) is written as \uXXXX, so the
// argument holds nothing cmd.exe reacts to while Claude reads the same
// values.
func (b *Builder) EncodeJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if !b.ViaCmd {
		return s, nil
	}
	// Inside JSON strings escape everything unsafe; structure characters
	// ({ } [ ] , " and the escapes' backslash) are left as JSON needs them.
	var out strings.Builder
	inString := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !inString:
			if r == '"' {
				inString = true
			}
			out.WriteRune(r)
		case r == '\\':
			// An escape: \" and \\ become \u escapes too (cmd.exe counts
			// quotes); \n, \t, \uXXXX are already safe.
			switch s[i+1] {
			case '"', '\\':
				writeUnicodeEscape(&out, rune(s[i+1]), false)
			default:
				out.WriteString(s[i : i+2])
			}
			i += 2
			continue
		case r == '"':
			inString = false
			out.WriteRune(r)
		case LineSafeText(r):
			out.WriteRune(r)
		default:
			writeUnicodeEscape(&out, r, false)
		}
		i += size
	}
	return out.String(), nil
}

// TOMLString is s as a TOML basic string. On a cmd.exe line every character
// outside the line-safe set is a \u escape (spec: "文字列の % は TOML escape").
func (b *Builder) TOMLString(s string) string {
	var out strings.Builder
	out.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			if b.ViaCmd {
				writeUnicodeEscape(&out, r, true)
			} else {
				out.WriteByte('\\')
				out.WriteRune(r)
			}
		case r < 0x20 || r == 0x7f:
			writeUnicodeEscape(&out, r, true)
		case b.ViaCmd && !LineSafeText(r):
			writeUnicodeEscape(&out, r, true)
		default:
			out.WriteRune(r)
		}
	}
	out.WriteByte('"')
	return out.String()
}

// writeUnicodeEscape writes r as \uXXXX; above the BMP, JSON takes a
// surrogate pair and TOML takes \UXXXXXXXX.
func writeUnicodeEscape(out *strings.Builder, r rune, toml bool) {
	switch {
	case r <= 0xffff:
		fmt.Fprintf(out, `\u%04X`, r)
	case toml:
		fmt.Fprintf(out, `\U%08X`, r)
	default:
		r -= 0x10000
		fmt.Fprintf(out, `\u%04X\u%04X`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
	}
}

// CheckLoopback accepts a URL of the given scheme whose host is a loopback
// address or localhost: nothing may reach beyond this machine.
func CheckLoopback(raw, scheme string) error {
	if err := room.CheckLoopbackURL(raw, scheme); err != nil {
		return fmt.Errorf("%w: %w", ErrRoomAddress, err)
	}
	return nil
}

// HasPlaceholder reports whether a word holds {session_id}.
func HasPlaceholder(words []string) bool {
	for _, w := range words {
		if strings.Contains(w, config.SessionIDPlaceholder) {
			return true
		}
	}
	return false
}

// newID makes a fresh session id with gen, or a random UUID v4.
func newID(gen func() (string, error)) (string, error) {
	if gen == nil {
		u, err := uuid.NewRandom()
		if err != nil {
			return "", fmt.Errorf("new session id: %w", err)
		}
		return u.String(), nil
	}
	id, err := gen()
	if err != nil {
		return "", fmt.Errorf("new session id: %w", err)
	}
	if id == "" {
		return "", fmt.Errorf("new session id: empty")
	}
	return id, nil
}

// ResolveCommandOr is ResolveCommand, or the command as written when it is
// not found (the check then fails with the spawn's error).
func ResolveCommandOr(command string) string {
	if p := ResolveCommand(command); p != "" {
		return p
	}
	return command
}
