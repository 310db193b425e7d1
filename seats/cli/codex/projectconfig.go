package codex

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/pullcept/pullcept/room"
)

// Room entries an earlier build left in a project's .codex/config.toml
// (spec «Codex CLI» #297): the original app registered the room there, in
// the tables of [mcp_servers], disabled; every build since carries the
// whole definition on the launch line. Those entries start no server, but
// they are ours and stale, so a Codex seat's start removes them from the
// file of the directory it starts in: only entries whose name starts with
// pullcept-room and whose env holds PULLCEPT_ACCOUNT_ID, whatever their
// room URL. Every other key, table and comment stays as written, a file
// without such an entry is not written, [mcp_servers] goes when nothing
// else is left in it, and the file itself stays.

// projectConfigRel is a Codex project's config file, in its directory.
var projectConfigRel = filepath.Join(".codex", "config.toml")

// staleEntryPrefix starts the name of every room entry Pullcept wrote.
const staleEntryPrefix = "pullcept-room"

// maxProjectConfig bounds the file read: a project config is a few KiB;
// a bigger one is not ours to rewrite.
const maxProjectConfig = 1 << 20

// RemoveStaleRoomEntries removes the room entries an earlier build wrote
// into dir's .codex/config.toml and returns their names, sorted (none: the
// file, when there is one, was not written). The file is read and written
// through an os.Root on dir, so a link out of it is refused; a link, a
// FIFO or anything but a regular file at the path is left alone with an
// error, and so is a file that is not TOML.
func RemoveStaleRoomEntries(dir string) ([]string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("working directory %s: %w", dir, err)
	}
	defer root.Close()
	path := filepath.Join(dir, projectConfigRel)
	data, perm, err := readProjectConfig(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out, removed, err := withoutStaleEntries(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(removed) == 0 {
		return nil, nil
	}
	if err := writeProjectConfig(root, out, perm); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return removed, nil
}

// readProjectConfig reads the file: a regular file, never through a final
// link, opened without waiting on a FIFO, at most maxProjectConfig bytes.
func readProjectConfig(root *os.Root) ([]byte, fs.FileMode, error) {
	fi, err := root.Lstat(projectConfigRel)
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("not a regular file (%v): left as it is", fi.Mode().Type())
	}
	f, err := root.OpenFile(projectConfigRel, os.O_RDONLY|openNoBlockFlag, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("not a regular file: left as it is")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxProjectConfig+1))
	if err != nil {
		return nil, 0, err
	}
	if len(data) > maxProjectConfig {
		return nil, 0, fmt.Errorf("over %d bytes: left as it is", maxProjectConfig)
	}
	return data, fi.Mode().Perm(), nil
}

// writeProjectConfig replaces the file with data: a temporary file beside
// it, synced, then renamed over it, all inside root.
func writeProjectConfig(root *os.Root, data []byte, perm fs.FileMode) error {
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	tmp := filepath.Join(".codex", ".config.toml.pullcept-"+hex.EncodeToString(rnd[:]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, projectConfigRel)
	}
	if err != nil {
		_ = root.Remove(tmp)
	}
	return err
}

// withoutStaleEntries is data without its stale room entries, and their
// names; removed is empty (and out is data) when it has none. A document
// that is not TOML is an error.
func withoutStaleEntries(data []byte) (out []byte, removed []string, err error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("not read as TOML, left as it is: %w", err)
	}
	servers, _ := doc["mcp_servers"].(map[string]any)
	stale := map[string]bool{}
	for name, v := range servers {
		entry, _ := v.(map[string]any)
		env, _ := entry["env"].(map[string]any)
		if _, ours := env[room.EnvAccountID]; ours && strings.HasPrefix(name, staleEntryPrefix) {
			stale[name] = true
			removed = append(removed, name)
		}
	}
	if len(removed) == 0 {
		return data, nil, nil
	}
	sort.Strings(removed)
	out, err = dropExpressions(data, func(path []string, table bool) bool {
		return len(path) >= 2 && path[0] == "mcp_servers" && stale[path[1]]
	})
	if err != nil {
		return nil, nil, err
	}
	// The table was the app's when nothing else is left in it.
	var rest map[string]any
	if err := toml.Unmarshal(out, &rest); err != nil {
		return nil, nil, fmt.Errorf("the file would not read as TOML without the room entries; left as it is: %w", err)
	}
	if left, ok := rest["mcp_servers"].(map[string]any); ok && len(left) == 0 {
		if out, err = dropExpressions(out, func(path []string, table bool) bool {
			return table && slices.Equal(path, []string{"mcp_servers"})
		}); err != nil {
			return nil, nil, err
		}
	}
	return out, removed, nil
}

// tomlExpr is one top-level expression of a TOML document: its full key
// path (a key/value's under its table), whether it is a table header, and
// the line it starts on. A comment has no path.
type tomlExpr struct {
	path  []string
	table bool
	line  int
}

// dropExpressions is data without the lines of every expression drop
// chooses — a table header or a key/value with its value, however many
// lines that takes — and without the blank lines that only separated
// them. Comments and every other line stay byte for byte.
func dropExpressions(data []byte, drop func(path []string, table bool) bool) ([]byte, error) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	exprs, err := tomlExprs(data)
	if err != nil {
		return nil, err
	}
	gone := make([]bool, len(lines))
	for i, e := range exprs {
		if e.path == nil || !drop(e.path, e.table) {
			continue
		}
		end := len(lines)
		if i+1 < len(exprs) {
			end = exprs[i+1].line
		}
		for end > e.line+1 && blankLine(lines[end-1]) {
			end-- // the blank lines after it are not its own
		}
		for l := e.line; l < end; l++ {
			gone[l] = true
		}
	}
	dropSeparators(lines, gone)
	var b bytes.Buffer
	for i, l := range lines {
		if !gone[i] {
			b.Write(l)
		}
	}
	return b.Bytes(), nil
}

// dropSeparators marks the blank lines that only separated lines now gone:
// those between two gone lines; those after gone lines that a blank line
// or the file's start comes before (else the blank would be doubled); and
// those before gone lines that end the file.
func dropSeparators(lines [][]byte, gone []bool) {
	// runs calls f with each run [i, j) of kept blank lines.
	runs := func(f func(i, j int)) {
		for i := 0; i < len(lines); {
			if gone[i] || !blankLine(lines[i]) {
				i++
				continue
			}
			j := i
			for j < len(lines) && !gone[j] && blankLine(lines[j]) {
				j++
			}
			f(i, j)
			i = j
		}
	}
	mark := func(i, j int) {
		for k := i; k < j; k++ {
			gone[k] = true
		}
	}
	runs(func(i, j int) {
		if i > 0 && gone[i-1] && j < len(lines) && gone[j] {
			mark(i, j)
		}
	})
	runs(func(i, j int) {
		switch {
		case i > 0 && gone[i-1]:
			k := i - 1
			for k >= 0 && gone[k] {
				k--
			}
			if k < 0 || blankLine(lines[k]) {
				mark(i, j)
			}
		case j < len(lines) && gone[j]:
			k := j
			for k < len(lines) && gone[k] {
				k++
			}
			if k == len(lines) {
				mark(i, j)
			}
		}
	})
}

func blankLine(l []byte) bool { return len(bytes.TrimSpace(l)) == 0 }

// tomlExprs lists data's top-level expressions in order.
func tomlExprs(data []byte) ([]tomlExpr, error) {
	p := unstable.Parser{KeepComments: true}
	p.Reset(data)
	var out []tomlExpr
	var table []string
	for p.NextExpression() {
		n := p.Expression()
		e := tomlExpr{}
		var first *unstable.Node
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable, unstable.KeyValue:
			var key []string
			it := n.Key()
			for it.Next() {
				k := it.Node()
				if first == nil {
					first = k
				}
				key = append(key, string(k.Data))
			}
			if n.Kind == unstable.KeyValue {
				e.path = append(slices.Clone(table), key...)
			} else {
				table, e.path, e.table = key, key, true
			}
		case unstable.Comment:
			first = n
		default:
			continue
		}
		if first == nil {
			continue
		}
		off := int(first.Raw.Offset)
		e.line = bytes.Count(data[:off], []byte("\n"))
		out = append(out, e)
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	return out, nil
}
