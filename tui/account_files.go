package tui

// AccountFiles is what the account editor asks of the disk
// (docs/design.md §9 "Character", §10): every field checked, the working
// directory made on request, the styles an account's CLI would find, and
// the character's body file read and written (spec «キャラクターの本文は
// アカウントの窓で直す»). The UI calls each from a command.
type AccountFiles interface {
	// CheckAccount checks every field of a as the editor holds it, without
	// saving: each problem names its field (and the line, for the env
	// field). It reads the disk (the working directory, the character's
	// files).
	CheckAccount(a AccountInfo) AccountCheck
	// CreateWorkDir makes dir (and its parents) for a's working directory.
	CreateWorkDir(dir string) error
	// CharacterStyles lists the output styles a's CLI would find for a
	// seat in a.Dir (Claude Code: the project's and the user's
	// output-styles folders, the user's from the account's own
	// CLAUDE_CONFIG_DIR when it has one; Codex: .codex/output-styles).
	CharacterStyles(a AccountInfo) ([]CharacterStyle, error)
	// OpenCharacter reads the body file of a's character, whose place
	// a.Kind, a.Dir and a.Character decide. A missing file is no error
	// (Exists false); refusals say why (not UTF-8, over the cap, outside
	// the working directory through a link …).
	OpenCharacter(a AccountInfo) (CharacterBody, error)
	// SaveCharacter writes text as the body of a's character in the form
	// (BOM, line ends) of opened, the body as it was read, creating the
	// output-styles folder and the file when missing (Codex's folder only
	// with createFolder). It is refused when the file is no longer what
	// opened read. It returns the body as written.
	SaveCharacter(a AccountInfo, opened CharacterBody, text string, createFolder bool) (CharacterBody, error)
	// PrepareCharacterEdit checks the body file's place for an outside
	// editor, makes its folder when missing (Codex's only with
	// createFolder) and returns the file's absolute path.
	PrepareCharacterEdit(a AccountInfo, createFolder bool) (string, error)
}

// AccountCheck is CheckAccount's answer.
type AccountCheck struct {
	// Problems are the fields' problems, in field order. Warn marks those
	// that do not stop a save (the seat still starts).
	Problems []FieldProblem
	// DirMissing says the working directory does not exist (the editor
	// offers to make it).
	DirMissing bool
	// CharacterVia is how the character reaches the CLI: "outputStyle"
	// (Claude Code's --settings), "LI_PLUS_OUTPUT_STYLE" (a Codex seat's
	// environment, Li+ hook mode), "developerInstructions" (an app-server
	// Codex seat: the style's body in its conversation's developer
	// instructions), "inline" (an app-server Codex seat in a project
	// without Li+'s style files: its heading's block of the user's own
	// developer_instructions, #276), or "" (this kind has no character).
	CharacterVia string
}

// FieldProblem is one problem of one field. Field is one of the Field…
// names; Line is the 1-based line in a multi-line field (0: the field).
type FieldProblem struct {
	Field string
	Line  int
	Text  string
	Warn  bool
}

// Field names of FieldProblem.
const (
	FieldName      = "name"
	FieldKind      = "kind"
	FieldHue       = "hue"
	FieldDir       = "dir"
	FieldCommand   = "command"
	FieldOptions   = "options"
	FieldResume    = "resume"
	FieldCharacter = "character"
	FieldBody      = "body"
	FieldEnv       = "env"
)

// CharacterStyle is a style the account's CLI would find: Name is what the
// character field takes, File the file, User true for Claude's user folder.
type CharacterStyle struct {
	Name string
	File string
	User bool
}

// CharacterBody is a character's body file as read or written.
type CharacterBody struct {
	// Path is the file's absolute path; Exists false when there is none yet.
	Path   string
	Exists bool
	// FolderExists says the output-styles folder exists.
	FolderExists bool
	// Text is the body with LF line ends and no BOM (a file whose line
	// ends were mixed keeps its CRs: the editor then cannot hold it).
	Text string
	// BOM, CRLF and Fingerprint are the file's form and identity as read;
	// SaveCharacter needs them back.
	BOM, CRLF   bool
	Fingerprint string
	// FrontName is the frontmatter's name: ("" for none) and FrontLine its line.
	FrontName string
	FrontLine int
	// WornBy names the other accounts whose character is this file.
	WornBy []string
	// DefinedIn is the file that defines a style of this name for the CLI
	// when it is not Path ("" when none, or Path itself).
	DefinedIn string
}
