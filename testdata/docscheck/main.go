// Command docscheck fails when Pullcept's documentation names something
// the code no longer has (issue 28: docs that cannot drift silently). `make
// lint` runs it from the repository root:
//
//	go run ./testdata/docscheck [ROOT]
//
// It reads docs/*.md, README.md, CONTRIBUTING.md, AGENTS.md and the package
// doc comment of every Go package in the tree (the comment on a package
// clause, test files included: testdata's test-only packages keep theirs
// there), and prints one line per problem, "file:line: what is missing",
// exiting 1 when there is any. Fenced code blocks in Markdown are skipped.
// Markdown is read for paths and identifiers in backticks and link
// targets; a package doc, whose names are bare words, word by word.
//
// Paths. A token is a repository path when it has no space, scheme (://),
// glob (* ? [), placeholder (< > { } … ... $ ~ %, an X stem as in
// X_update.go) or leading /, - or _ (a suffix: _test.go), and either starts with a top-level entry
// and a slash (docs/clis.md, testdata/fakeapi, .ci/run) or is a top-level
// file (Makefile). Top-level entries are what the root holds but .git and
// what the root's .gitignore ignores there (bin/, .bench/), so a data dir's
// paths (logs/main/index.json, ~/.claude/…) and a library's files are never
// taken for ours; paths under a deeper .gitignore entry
// (testdata/clis/node_modules, made by make clis) are not checked. A
// package doc may also name a file of its own package without a directory
// (main.go). A path must exist: a link target from the doc's directory,
// any other from the root. A last segment pkg.Ident
// (testdata/testkit.Eventually) is the directory pkg. Not paths: notPaths
// (Codex app-server methods named like one of our directories).
//
// Identifiers. A token of dot-separated Go identifiers (a trailing call
// "(…)" and type arguments "[…]" aside) whose last part is not a file
// extension (config.json), with no snake_case part
// (config.model_reasoning_effort is a key), is checked when its first part
// is ours:
//
//   - a package name of ours (room.Terminals, seats.Manager.Close): the
//     second part is declared in that package, or is a method or field of
//     one of its types (logstore.CopyAttachment); a third part is a field
//     or method of that type;
//   - else a type of ours, exported or not (Hub.Post, Model.handle,
//     roomState.mu): the second part is a field or method of a type of
//     that name, through what it embeds. Not in docs/clis.md and
//     docs/dependencies.md, which are about other people's code, whose
//     type names are often ours too (Screen).
//
// Anything else (tea.Cmd, json.Marshal, a JSON path) is not ours. A bare
// word is checked only when it is a test's name (Test…, Benchmark…, Fuzz…:
// a func of a test file) or, in Markdown backticks outside those two
// docs, camelCase (typeLocked, alwaysLoad) or two-word PascalCase
// (ErrNoSeat, PostToolUse): an identifier or a word of a string literal
// somewhere in the Go code (xxxMsg and XxxOptions stand for a kind of name;
// a few Windows calls are other people's, foreignNames; prose may be
// camelCase, as macOS is).
//
// Sections. "§N" (N like 9 or 2.17) must be a numbered heading ("## §9 …",
// "### 2.17 …") of the document it refers to: the .md named right before
// it (docs/design.md §9, [clis.md §2.5](clis.md), and design §6 for
// docs/design.md), the link target when it is a bare § in a link's text,
// the previous reference's document when only commas, dashes, "and" or
// "or" stand between them (§2–§4, §6), else the file itself when it
// numbers its headings (a bare § in clis.md is one of clis.md's), else
// docs/design.md. A quoted name right after it (§2 "The brake", at most 80
// characters) must occur, case and emphasis aside, in that section's text,
// headings included.
//
// pending.txt lists, one a line, problems known and left for other work
// (the seats restructuring) as "file: message", without the line number;
// they are not reported, and an entry that matches nothing is a problem.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	os.Exit(run(root, os.Stdout, os.Stderr))
}

// run checks the repository at root, printing the problems to out; it
// returns the exit code.
func run(root string, out, errOut io.Writer) int {
	problems, err := check(root)
	if err != nil {
		fmt.Fprintf(errOut, "docscheck: %v\n", err)
		return 2
	}
	pending, err := readPending(root)
	if err != nil {
		fmt.Fprintf(errOut, "docscheck: %v\n", err)
		return 2
	}
	problems = applyPending(problems, pending)
	for _, p := range problems {
		fmt.Fprintln(out, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(errOut, "docscheck: %d problem(s)\n", len(problems))
		return 1
	}
	return 0
}
