package main

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// pendingFile lists known problems left for other work (the package doc).
const pendingFile = "testdata/docscheck/pending.txt"

// pendingEntry is one line of pending.txt: "file: message".
type pendingEntry struct {
	line int
	key  string
}

// readPending reads pending.txt's entries; blank lines and # comments are
// skipped. No file is no entries.
func readPending(root string) ([]pendingEntry, error) {
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(pendingFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var entries []pendingEntry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			entries = append(entries, pendingEntry{line: n, key: l})
		}
	}
	return entries, sc.Err()
}

// applyPending drops the problems pending lists and adds one for each
// entry that matched none (the doc was fixed: the entry must go).
func applyPending(problems []problem, pending []pendingEntry) []problem {
	listed := map[string]bool{}
	for _, e := range pending {
		listed[e.key] = true
	}
	used := map[string]bool{}
	var out []problem
	for _, p := range problems {
		if listed[p.key()] {
			used[p.key()] = true
			continue
		}
		out = append(out, p)
	}
	for _, e := range pending {
		if !used[e.key] {
			out = append(out, problem{file: pendingFile, line: e.line, msg: "no longer reported, remove the entry: " + e.key})
		}
	}
	return out
}
