package main

import (
	"regexp"
	"strings"
)

// typeArgsRE matches type arguments after an identifier (Broker[T]).
var typeArgsRE = regexp.MustCompile(`([\w])\[[^\]]*\]`)

// camelRE matches a camelCase word, lower-case first: a name in the code
// (typeLocked), or a key the code reads or writes (alwaysLoad); one
// starting "xxx" stands for a kind of name (xxxMsg).
var camelRE = regexp.MustCompile(`^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$`)

// pascalRE matches an exported-looking name of two words or more
// (ErrNoSeat, HoldAttach, PostToolUse): checked like camelRE's, so a name
// the code renamed or dropped is caught even when the docs name it bare.
var pascalRE = regexp.MustCompile(`^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$`)

// foreignNames are other people's APIs the docs name bare, not ours: the
// Windows calls the PTY and opener layers make or Wine lacks.
var foreignNames = map[string]bool{"ShellExecuteW": true, "ProcessPrng": true, "FileDispositionInformationEx": true}

// callRE matches a trailing call's arguments (Server.URL(), Hub.Post(t, d)).
var callRE = regexp.MustCompile(`\([^()]*\)$`)

// checkIdent checks each identifier in tok (see the package doc): tok may
// join several with '/' (Terminals.SidecarJoined/SidecarReady) or carry a
// path (testdata/testkit.Eventually). byType is false where only
// package-qualified names are checked; camel is set where a camelCase
// word is code, not prose (backticks).
func (c *checker) checkIdent(d *document, text string, off int, tok string, byType, camel bool) {
	tok = callRE.ReplaceAllString(typeArgsRE.ReplaceAllString(tok, "$1"), "")
	if strings.ContainsAny(tok, " \t\n") {
		return
	}
	for _, part := range strings.Split(tok, "/") {
		if msg := c.identProblem(part, byType, camel); msg != "" {
			c.report(d, text, off, "%s: %s", part, msg)
		}
	}
}

// identProblem says what is missing of the identifier tok, "" when it
// exists or is not ours.
func (c *checker) identProblem(tok string, byType, camel bool) string {
	if isTestName(tok) && isIdent(tok) {
		if !c.ix.tests[tok] {
			return "no such test, benchmark or fuzz target in a _test.go file"
		}
		return ""
	}
	if camel && (camelRE.MatchString(tok) || pascalRE.MatchString(tok)) && !strings.HasPrefix(strings.ToLower(tok), "xxx") &&
		!foreignNames[tok] && !c.ix.names[tok] {
		return "no identifier or string in the Go code is named so"
	}
	parts := strings.Split(tok, ".")
	if len(parts) < 2 || fileExts[parts[len(parts)-1]] {
		return ""
	}
	for _, p := range parts {
		if !isIdent(p) || isSnake(p) {
			return "" // snake_case: a config or JSON key
		}
	}
	if decls, ok := c.ix.pkgs[parts[0]]; ok && parts[0] != "main" {
		if !decls[parts[1]] && !c.ix.memberOfPkg(parts[0], parts[1]) {
			return "package " + parts[0] + " declares no " + parts[1]
		}
		if len(parts) > 2 && c.ix.isType(parts[0], parts[1]) && !c.ix.hasMember(parts[0], parts[1], parts[2]) {
			return "type " + parts[0] + "." + parts[1] + " has no field or method " + parts[2]
		}
		return ""
	}
	if byType && len(c.ix.types[parts[0]]) > 0 && !c.ix.hasMember("", parts[0], parts[1]) {
		return "no type " + parts[0] + " of ours has a field or method " + parts[1]
	}
	return ""
}

// memberOfPkg reports whether some type of package pkg has member m
// (logstore.CopyAttachment, short for the method of its Store).
func (ix *goIndex) memberOfPkg(pkg, m string) bool {
	for _, ts := range ix.types {
		for _, t := range ts {
			if t.pkg == pkg && t.members[m] {
				return true
			}
		}
	}
	return false
}

// isSnake reports whether s is snake_case: lower-case words joined by '_'.
func isSnake(s string) bool {
	return strings.Contains(strings.Trim(s, "_"), "_") && strings.ToLower(s) == s
}

// isType reports whether package pkg declares a type named name.
func (ix *goIndex) isType(pkg, name string) bool {
	for _, t := range ix.types[name] {
		if t.pkg == pkg {
			return true
		}
	}
	return false
}

// isIdent reports whether s is a Go identifier (ASCII).
func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
