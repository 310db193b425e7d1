package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/tui"
)

// The account editor's files (tui.AccountFiles): conversions over config's
// field rules and seats' working directory and character files.

var _ tui.AccountFiles = (*Backend)(nil)

// editDraft is the account the editor holds, with the stored env kept (a
// check never opens or seals a value; the env field is checked as text).
func (b *Backend) editDraft(in tui.AccountInfo) config.Account {
	e := toEdit(in)
	e.KeepEnv = true
	a, _ := b.a.accounts.Draft(e) // KeepEnv: Draft returns no error
	return a
}

// fieldOf maps config's field names onto the editor's.
var fieldOf = map[string]string{
	config.FieldName: tui.FieldName, config.FieldKind: tui.FieldKind, config.FieldHue: tui.FieldHue,
	config.FieldWorkDir: tui.FieldDir, config.FieldCommand: tui.FieldCommand, config.FieldOptions: tui.FieldOptions,
	config.FieldResume: tui.FieldResume, config.FieldEnv: tui.FieldEnv, config.FieldCharacter: tui.FieldCharacter,
}

// CheckAccount checks every field the editor shows (docs/design.md §9):
// config's field rules, the env field line by line, whether the working
// directory exists, and the character's name for its kind.
func (b *Backend) CheckAccount(in tui.AccountInfo) tui.AccountCheck {
	a := b.editDraft(in)
	out := tui.AccountCheck{CharacterVia: character.AccountVia(a)}
	add := func(field string, line int, err error, warn bool) {
		if f, ok := fieldOf[field]; ok {
			field = f
		}
		out.Problems = append(out.Problems, tui.FieldProblem{Field: field, Line: line, Text: err.Error(), Warn: warn})
	}
	for _, fe := range config.CheckFields(a) {
		if fe.Field != config.FieldEnv || in.KeepEnv {
			add(fe.Field, fe.Line, fe.Err, false)
		}
	}
	var names []config.EnvFieldName
	if in.KeepEnv {
		for _, v := range a.Env {
			names = append(names, config.EnvFieldName{Name: v.Name})
		}
	} else {
		var errs []config.FieldError
		names, errs = config.CheckEnvField(in.Env)
		for _, fe := range errs {
			add(fe.Field, fe.Line, fe.Err, false)
		}
	}
	for _, n := range names {
		if character.OwnsEnv(a.Kind, n.Name) {
			add(tui.FieldEnv, n.Line, seatsOwned(n.Name), false)
		}
	}
	if a.Kind.Launches() && filepath.IsAbs(a.WorkDir) {
		if err := character.CheckWorkDir(a.WorkDir); err != nil {
			out.DirMissing = errors.Is(err, character.ErrWorkDirMissing)
			add(tui.FieldDir, 0, err, false)
		}
	}
	if out.CharacterVia != "" {
		if err := character.CheckAccountName(a); err != nil {
			// A Claude name that cannot name a file still selects a style;
			// only its body cannot be edited here. Codex's loader refuses it.
			add(tui.FieldCharacter, 0, err, a.Kind != config.KindCodexCLI)
		}
	}
	return out
}

// seatsOwned is the refusal of an env line setting the variable a Codex
// seat's character travels in.
func seatsOwned(name string) error {
	return errors.Join(character.ErrEnvAppOwned, errors.New(name+": write the style's name in the character field"))
}

// CreateWorkDir makes the working directory (seats.CreateWorkDir).
func (b *Backend) CreateWorkDir(dir string) error { return character.CreateWorkDir(dir) }

// styleGetenv is the environment the account's CLI would see, for finding
// its styles: the account's own CLAUDE_CONFIG_DIR, when its stored env
// names one, over Pullcept's environment. Opening values may take a
// keyring's time, so it is done only then; a value that will not open
// leaves Pullcept's environment.
func (b *Backend) styleGetenv(id string) func(string) string {
	stored, ok := b.a.accounts.Account(id)
	if !ok {
		return os.Getenv
	}
	for _, v := range stored.Env {
		if v.Name == "CLAUDE_CONFIG_DIR" {
			if opened, err := b.a.accounts.OpenEnv(stored); err == nil {
				return launch.SeatGetenv(opened, os.Getenv)
			}
		}
	}
	return os.Getenv
}

// CharacterStyles lists the styles the account's CLI would find
// (seats.ListStyles).
func (b *Backend) CharacterStyles(in tui.AccountInfo) ([]tui.CharacterStyle, error) {
	a := b.editDraft(in)
	styles, err := character.ListStyles(a.Kind, a.WorkDir, b.styleGetenv(in.ID))
	if err != nil {
		return nil, err
	}
	out := make([]tui.CharacterStyle, 0, len(styles))
	for _, s := range styles {
		out = append(out, tui.CharacterStyle{Name: s.Name, File: s.Path, User: s.Scope == character.ScopeUser})
	}
	return out, nil
}

// OpenCharacter reads the character's body file (seats.OpenCharacter),
// with the other accounts that wear it and the file a style of that name
// comes from when it is another.
func (b *Backend) OpenCharacter(in tui.AccountInfo) (tui.CharacterBody, error) {
	a := b.editDraft(in)
	cf, err := character.Open(a.Kind, a.WorkDir, a.Character)
	if errors.Is(err, character.ErrWorkDirMissing) {
		// A working dir to be made with the save: its body is a new file.
		rel, relErr := character.Rel(a.Kind, a.Character)
		if relErr != nil {
			return tui.CharacterBody{}, relErr
		}
		return tui.CharacterBody{Path: filepath.Join(a.WorkDir, rel)}, nil
	}
	if err != nil {
		return tui.CharacterBody{}, err
	}
	return b.characterBody(in, a, cf), nil
}

func (b *Backend) characterBody(in tui.AccountInfo, a config.Account, cf character.File) tui.CharacterBody {
	body := tui.CharacterBody{Path: cf.Path, Exists: cf.Exists, FolderExists: cf.FolderExists, Text: cf.Text,
		BOM: cf.BOM, CRLF: cf.CRLF, Fingerprint: cf.Fingerprint, FrontName: cf.FrontName, FrontLine: cf.FrontLine,
		WornBy: character.Wearers(a.Kind, a.WorkDir, a.Character, in.ID, b.a.accounts.All())}
	if styles, err := character.ListStyles(a.Kind, a.WorkDir, b.styleGetenv(in.ID)); err == nil {
		name := strings.TrimSpace(a.Character)
		for _, s := range styles {
			if s.Name == name {
				if s.Path != cf.Path {
					body.DefinedIn = s.Path
				}
				break
			}
		}
	}
	return body
}

// SaveCharacter writes the body (character.Write) in the form it was
// read in, refused when the file changed since.
func (b *Backend) SaveCharacter(in tui.AccountInfo, opened tui.CharacterBody, text string, createFolder bool) (tui.CharacterBody, error) {
	a := b.editDraft(in)
	cf, err := character.Write(character.Body{Kind: a.Kind, WorkDir: a.WorkDir, Name: a.Character, Text: text,
		BOM: opened.BOM, CRLF: opened.CRLF, Fingerprint: opened.Fingerprint, CreateFolder: createFolder})
	if err != nil {
		return tui.CharacterBody{}, err
	}
	return b.characterBody(in, a, cf), nil
}

// PrepareCharacterEdit readies the body file for an outside editor
// (seats.PrepareCharacterEdit).
func (b *Backend) PrepareCharacterEdit(in tui.AccountInfo, createFolder bool) (string, error) {
	a := b.editDraft(in)
	return character.PrepareEdit(a.Kind, a.WorkDir, a.Character, createFolder)
}
