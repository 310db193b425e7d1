package character

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/pullcept/pullcept/config"
)

// The character body file (spec «キャラクターの本文はアカウントの窓で直す»).
// Every access goes through an os.Root opened on the working directory:
// links are followed only while they stay inside it (an absolute link is
// refused by os.Root even when it points inside). A file that exists is
// rewritten in place, so a style shared by a link stays one file. Only
// UTF-8 files of at most MaxBytes open; the BOM and the line-end
// form (all CRLF, else LF) read are written back. A write names the bytes
// it expects to replace (Fingerprint) and is refused when the file changed
// since (ErrChanged).

// File is a body file as read (Open) or just written.
type File struct {
	// Path is the file's absolute path (<work dir>/<rel>).
	Path string
	// Rel is Path relative to the working directory.
	Rel string
	// Exists is false when there is no file yet (Text is then "").
	Exists bool
	// FolderExists says the output-styles folder exists. For Codex a new
	// folder switches every seat there to Li+'s file mode (#281).
	FolderExists bool
	// Text is the body as an editor holds it: without the BOM, and with LF
	// line ends when the file's were all CRLF (else as read: a lone CR or a
	// mix stays in the text, and an editor that cannot hold it says so).
	Text string
	// BOM and CRLF are the file's form, written back by Write.
	BOM, CRLF bool
	// Fingerprint identifies the bytes read (a SHA-256 in hex); "" when the
	// file does not exist.
	Fingerprint string
	// FrontName is the frontmatter's name: ("" when none); FrontLine its
	// 1-based line in the file (0 when none).
	FrontName string
	FrontLine int
}

// Body is a body to write for an account's character.
type Body struct {
	Kind    config.Kind
	WorkDir string
	Name    string
	// Text is the body as the editor holds it (LF line ends, no BOM); BOM
	// and CRLF give the file's form (those of the file as read).
	Text      string
	BOM, CRLF bool
	// Fingerprint is that of the file as the editor read it ("" when there
	// was none): the write is refused when the file is no longer those bytes.
	Fingerprint string
	// CreateFolder allows making .codex/output-styles, which switches every
	// Codex seat in the working directory to Li+'s file mode (#281). A
	// Claude folder is made whenever it is missing.
	CreateFolder bool
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// openWorkRoot opens the working directory as the root every character
// file access stays in.
func openWorkRoot(workDir string) (*os.Root, error) {
	if err := CheckWorkDir(workDir); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(workDir)
	if err != nil {
		return nil, fmt.Errorf("working directory %s: %w", workDir, err)
	}
	return r, nil
}

// Open reads the body file of kind k's character name in workDir.
// A missing file is no error (Exists false). Errors wrap ErrName,
// ErrNoWorkDir, ErrWorkDirMissing, ErrWorkDirNotDir, ErrOutside,
// ErrNotFile, ErrTooBig or ErrNotUTF8.
func Open(k config.Kind, workDir, name string) (File, error) {
	rel, err := Rel(k, name)
	if err != nil {
		return File{}, err
	}
	root, err := openWorkRoot(workDir)
	if err != nil {
		return File{}, err
	}
	defer root.Close()
	data, exists, err := readCharacter(root, workDir, rel)
	if err != nil {
		return File{}, err
	}
	cf, err := decodeCharacter(data)
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", filepath.Join(workDir, rel), err)
	}
	cf.Path, cf.Rel, cf.Exists = filepath.Join(workDir, rel), rel, exists
	if !exists {
		cf.Fingerprint = ""
	}
	cf.FolderExists = folderExists(root, stylesRel(k))
	return cf, nil
}

func folderExists(root *os.Root, rel string) bool {
	fi, err := root.Stat(rel)
	return err == nil && fi.IsDir()
}

// readCharacter reads rel under root: a regular file of at most
// MaxBytes, opened without waiting on a FIFO. A missing file is
// (nil, false, nil).
func readCharacter(root *os.Root, workDir, rel string) ([]byte, bool, error) {
	path := filepath.Join(workDir, rel)
	if err := checkInside(workDir, rel); err != nil {
		return nil, false, err
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|openNoBlockFlag, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("%w: %s: %w", ErrOutside, path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%w: %s (%v)", ErrNotFile, path, fi.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxBytes {
		return nil, false, fmt.Errorf("%w: %s is over %d bytes", ErrTooBig, path, MaxBytes)
	}
	return data, true, nil
}

// checkInside refuses rel when, followed through its links, it leaves
// workDir (spec: the file must stay inside the working directory through
// links and junctions). os.Root enforces the same on every access; this
// names the refusal (ErrOutside) and also catches an absolute
// link, which os.Root refuses with a less telling error.
func checkInside(workDir, rel string) error {
	base, err := filepath.EvalSymlinks(workDir)
	if err != nil {
		return fmt.Errorf("working directory %s: %w", workDir, err)
	}
	// Resolve the deepest part of the path that exists.
	p := filepath.Join(workDir, rel)
	rest := ""
	for {
		if resolved, err := filepath.EvalSymlinks(p); err == nil {
			p = filepath.Join(resolved, rest)
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
	if r, err := filepath.Rel(base, p); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%w: %s leads to %s", ErrOutside, filepath.Join(workDir, rel), p)
	}
	return nil
}

// decodeCharacter reads a file's bytes as an editor holds them.
func decodeCharacter(data []byte) (File, error) {
	if !utf8.Valid(data) {
		return File{}, ErrNotUTF8
	}
	cf := File{Fingerprint: fingerprint(data)}
	if bytes.HasPrefix(data, utf8BOM) {
		cf.BOM, data = true, data[len(utf8BOM):]
	}
	text := string(data)
	if n := strings.Count(text, "\n"); n > 0 && strings.Count(text, "\r\n") == n {
		cf.CRLF, text = true, strings.ReplaceAll(text, "\r\n", "\n")
	}
	cf.Text = text
	cf.FrontName, cf.FrontLine = frontmatterName(text)
	return cf, nil
}

// Encode is the file's bytes for text (LF line ends) in the form
// bom/crlf: the inverse of what Open hands the editor.
func Encode(text string, bom, crlf bool) []byte {
	if crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	if bom {
		return append(append([]byte(nil), utf8BOM...), text...)
	}
	return []byte(text)
}

func fingerprint(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// frontmatterName is the name: of text's frontmatter (a first line "---",
// YAML, a closing "---" line), as both CLIs read it, and its 1-based line;
// "" and 0 when there is none or it is not YAML.
func frontmatterName(text string) (string, int) {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return "", 0
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return "", 0
	}
	if after := rest[end+4:]; after != "" && after[0] != '\n' && after[0] != '\r' {
		return "", 0
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(rest[:end+1]), &doc); err != nil || len(doc.Content) == 0 {
		return "", 0
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return "", 0
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "name" && m.Content[i+1].Kind == yaml.ScalarNode {
			return m.Content[i+1].Value, m.Content[i+1].Line + 1
		}
	}
	return "", 0
}

// Write writes w's body to its file, in place when the file exists
// (a link keeps pointing at the one file), creating the output-styles
// folder and the file when missing. Nothing is written when the bytes
// would not change. Refusals (nothing written) wrap Open's, plus
// ErrChanged (the file is not the bytes w.Fingerprint names),
// ErrTooBig and ErrCodexStylesFolder (a Codex folder to make
// without w.CreateFolder). It returns the file as written.
func Write(w Body) (File, error) {
	rel, err := Rel(w.Kind, w.Name)
	if err != nil {
		return File{}, err
	}
	data := Encode(w.Text, w.BOM, w.CRLF)
	path := filepath.Join(w.WorkDir, rel)
	if len(data) > MaxBytes {
		return File{}, fmt.Errorf("%w: %s would be %d bytes, the limit is %d", ErrTooBig, path, len(data), MaxBytes)
	}
	root, err := openWorkRoot(w.WorkDir)
	if err != nil {
		return File{}, err
	}
	defer root.Close()
	folder := stylesRel(w.Kind)
	if !folderExists(root, folder) {
		if w.Kind == config.KindCodexCLI && !w.CreateFolder {
			return File{}, fmt.Errorf("%w: %s", ErrCodexStylesFolder, filepath.Join(w.WorkDir, folder))
		}
		if err := checkInside(w.WorkDir, folder); err != nil {
			return File{}, err
		}
		if err := root.MkdirAll(folder, 0o755); err != nil {
			return File{}, fmt.Errorf("%w: %s: %w", ErrOutside, filepath.Join(w.WorkDir, folder), err)
		}
	}
	cur, exists, err := readCharacter(root, w.WorkDir, rel)
	if err != nil {
		return File{}, err
	}
	if have := fingerprintOf(cur, exists); have != w.Fingerprint {
		return File{}, fmt.Errorf("%w: %s", ErrChanged, path)
	}
	if !exists || !bytes.Equal(cur, data) {
		if err := writeInPlace(root, rel, path, data, exists); err != nil {
			return File{}, err
		}
	}
	cf, err := decodeCharacter(data)
	if err != nil {
		return File{}, err
	}
	cf.Path, cf.Rel, cf.Exists, cf.FolderExists = path, rel, true, true
	return cf, nil
}

func fingerprintOf(data []byte, exists bool) string {
	if !exists {
		return ""
	}
	return fingerprint(data)
}

// writeInPlace writes data into rel: truncating the existing file (not
// replacing it, so a linked style stays one file), or creating a new one
// that must not exist yet.
func writeInPlace(root *os.Root, rel, path string, data []byte, exists bool) error {
	flag := os.O_WRONLY | os.O_TRUNC
	if !exists {
		flag = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	}
	f, err := root.OpenFile(rel, flag, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// PrepareEdit makes the body file's folder when it is missing (for
// Codex only when createFolder, as Write) and returns the file's
// absolute path, checked to stay inside workDir: for an outside editor
// ($VISUAL, $EDITOR) to open. The file itself is not created.
func PrepareEdit(k config.Kind, workDir, name string, createFolder bool) (string, error) {
	rel, err := Rel(k, name)
	if err != nil {
		return "", err
	}
	root, err := openWorkRoot(workDir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if _, _, err := readCharacter(root, workDir, rel); err != nil {
		return "", err
	}
	folder := stylesRel(k)
	if !folderExists(root, folder) {
		if k == config.KindCodexCLI && !createFolder {
			return "", fmt.Errorf("%w: %s", ErrCodexStylesFolder, filepath.Join(workDir, folder))
		}
		if err := root.MkdirAll(folder, 0o755); err != nil {
			return "", fmt.Errorf("%w: %s: %w", ErrOutside, filepath.Join(workDir, folder), err)
		}
	}
	return filepath.Join(workDir, rel), nil
}
