package tui

import (
	"errors"
	"fmt"
	"strings"
)

// filesFake is fakeBackend's AccountFiles: folders that are missing, the
// styles and body files it knows by path, and what the editor asked.
type filesFake struct {
	missing  map[string]bool          // working dirs that do not exist
	made     []string                 // CreateWorkDir calls
	styles   []CharacterStyle         // CharacterStyles' answer
	bodies   map[string]CharacterBody // body files by path
	folders  map[string]bool          // output-styles folders that exist, by path
	inline   map[string]bool          // working dirs whose project selects inline (#276)
	opens    []string                 // OpenCharacter calls (paths)
	saves    []string                 // "path|text"
	prepared []string                 // PrepareCharacterEdit calls
	openErr  error
	saveErr  error
	problems []FieldProblem // added to every CheckAccount answer
	wornBy   []string       // WornBy of every body
	checks   int
}

// fakeCharacterPath is where the fake keeps a's body.
func fakeCharacterPath(a AccountInfo) string {
	home := ".claude"
	if a.Kind == KindCodexCLI {
		home = ".codex"
	}
	return a.Dir + "/" + home + "/output-styles/" + strings.TrimSpace(a.Character) + ".md"
}

func fakeFolder(a AccountInfo) string {
	p := fakeCharacterPath(a)
	return p[:strings.LastIndex(p, "/")]
}

func (f *fakeBackend) CheckAccount(a AccountInfo) AccountCheck {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files.checks++
	var out AccountCheck
	switch a.Kind {
	case KindClaudeCode:
		out.CharacterVia = "outputStyle"
	case KindCodexCLI:
		out.CharacterVia = "LI_PLUS_OUTPUT_STYLE"
		if a.AppServer {
			out.CharacterVia = "developerInstructions"
			if f.files.inline[a.Dir] {
				out.CharacterVia = "inline"
			}
		}
	}
	if a.Kind != KindAdmin && a.Kind != KindMCP {
		switch {
		case a.Dir == "":
			out.Problems = append(out.Problems, FieldProblem{Field: FieldDir, Text: "working directory is required"})
		case f.files.missing[a.Dir]:
			out.DirMissing = true
			out.Problems = append(out.Problems, FieldProblem{Field: FieldDir, Text: "working directory does not exist: " + a.Dir})
		}
	}
	for i, l := range strings.Split(a.Env, "\n") {
		if l != "" && !strings.Contains(l, "=") {
			out.Problems = append(out.Problems, FieldProblem{Field: FieldEnv, Line: i + 1, Text: `bad env var line: no "=" (write NAME=value)`})
		}
	}
	out.Problems = append(out.Problems, f.files.problems...)
	return out
}

func (f *fakeBackend) CreateWorkDir(dir string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files.made = append(f.files.made, dir)
	delete(f.files.missing, dir)
	return nil
}

func (f *fakeBackend) CharacterStyles(AccountInfo) ([]CharacterStyle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]CharacterStyle(nil), f.files.styles...), nil
}

func (f *fakeBackend) OpenCharacter(a AccountInfo) (CharacterBody, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := fakeCharacterPath(a)
	f.files.opens = append(f.files.opens, p)
	if f.files.openErr != nil {
		return CharacterBody{}, f.files.openErr
	}
	if strings.TrimSpace(a.Character) == "" {
		return CharacterBody{}, errors.New("bad character name: no character named")
	}
	b, ok := f.files.bodies[p]
	if !ok {
		b = CharacterBody{Path: p}
	}
	b.FolderExists = f.files.folders[fakeFolder(a)] || ok
	b.WornBy = f.files.wornBy
	return b, nil
}

func (f *fakeBackend) SaveCharacter(a AccountInfo, opened CharacterBody, text string, createFolder bool) (CharacterBody, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.files.saveErr != nil {
		return CharacterBody{}, f.files.saveErr
	}
	p := fakeCharacterPath(a)
	if cur := f.files.bodies[p]; cur.Fingerprint != opened.Fingerprint {
		return CharacterBody{}, errors.New("character file changed since it was opened: " + p)
	}
	if a.Kind == KindCodexCLI && !f.files.folders[fakeFolder(a)] && !createFolder {
		return CharacterBody{}, errors.New(".codex/output-styles does not exist")
	}
	if f.files.bodies == nil {
		f.files.bodies = map[string]CharacterBody{}
	}
	if f.files.folders == nil {
		f.files.folders = map[string]bool{}
	}
	f.files.folders[fakeFolder(a)] = true
	f.files.saves = append(f.files.saves, p+"|"+text)
	b := CharacterBody{Path: p, Exists: true, FolderExists: true, Text: text, BOM: opened.BOM, CRLF: opened.CRLF,
		Fingerprint: fmt.Sprintf("fp%d", len(f.files.saves))}
	f.files.bodies[p] = b
	return b, nil
}

func (f *fakeBackend) PrepareCharacterEdit(a AccountInfo, createFolder bool) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := fakeCharacterPath(a)
	f.files.prepared = append(f.files.prepared, p)
	if a.Kind == KindCodexCLI && !f.files.folders[fakeFolder(a)] && !createFolder {
		return "", errors.New(".codex/output-styles does not exist")
	}
	return p, nil
}
