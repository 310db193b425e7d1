package tui

import (
	"regexp"
	"strconv"
	"strings"
)

// The account editor's kind change (docs/design.md §9 "Identity"): a kind
// names the CLI an account runs, so what was set for the old one goes with
// it. The command becomes the new kind's (found on PATH when it is, as a
// new account's is), the launch options (flags of the old CLI) and a
// generic CLI's resume line are emptied, and a name that was the old
// kind's default ("Claude Code", "Claude Code 2") becomes the new kind's.
// A name the person chose, the nickname, hue, working directory,
// character and env stay. Becoming a Codex account turns app-server mode
// on (an account opened as a Codex account gets its own setting back).
// The editor says what changed at once, before anything is saved: Esc
// still drops it all.

// kindDefaults is what the editor needs to reset a kind: the other
// accounts' display names (a default name must not repeat one) and the
// commands found on PATH.
type kindDefaults struct {
	taken map[string]bool   // other accounts' names and display names, lower-case
	found map[string]string // command → path on PATH
}

// kindDefaultsFor is the kind reset's context for editing account id.
func (ab *accountBook) kindDefaultsFor(id string) kindDefaults {
	d := kindDefaults{taken: map[string]bool{}, found: ab.found}
	for _, a := range ab.list {
		if a.ID != id {
			d.taken[strings.ToLower(strings.TrimSpace(a.Name))] = true
			d.taken[strings.ToLower(strings.TrimSpace(displayAccountName(a)))] = true
		}
	}
	return d
}

// kindCommand is the default command of kind: the quick kind's, as found
// on PATH when it is; "" for kinds without one (a generic CLI, MCP).
func (d kindDefaults) kindCommand(kind string) string {
	for _, q := range quickKinds {
		if q.kind == kind && q.command != "" {
			if p, ok := d.found[q.command]; ok {
				return p
			}
			return q.command
		}
	}
	return ""
}

// kindLabelKey is the catalog key of kind's label, which is also the
// default name of its new accounts.
func kindLabelKey(kind string) (msgKey, bool) {
	switch kind {
	case KindClaudeCode:
		return mKindClaude, true
	case KindCodexCLI:
		return mKindCodex, true
	case KindCLI:
		return mKindCLI, true
	case KindMCP:
		return mKindMCP, true
	}
	return 0, false
}

// numbered is a default name's optional " N" suffix (uniqueName).
var numbered = regexp.MustCompile(` [0-9]+$`)

// isDefaultName reports whether name is kind's default name in either
// language, with or without uniqueName's number.
func isDefaultName(name, kind string) bool {
	k, ok := kindLabelKey(kind)
	if !ok {
		return false
	}
	name = strings.TrimSpace(name)
	bare := numbered.ReplaceAllString(name, "")
	for _, label := range messages[k] {
		if strings.EqualFold(name, label) || strings.EqualFold(bare, label) {
			return true
		}
	}
	return false
}

// uniqueName is base, or "base 2", "base 3"… that no other account goes by.
func (d kindDefaults) uniqueName(base string) string {
	n := base
	for i := 2; d.taken[strings.ToLower(n)]; i++ {
		n = base + " " + strconv.Itoa(i)
	}
	return n
}

// kindChanged resets what belonged to kind from now that the account's
// kind is ed.acc.Kind, and puts what changed in the editor's message.
func (ed *accountEditor) kindChanged(e *env, from string) {
	tr := e.tr
	to := ed.acc.Kind
	shown := func(s string) string {
		if strings.TrimSpace(s) == "" {
			return tr.t(mEdEmpty)
		}
		return tr.t(mEdQuoted, sanitize(s))
	}
	var changes []string
	set := func(f edField, v string, what msgKey) {
		in := ed.inputs[f]
		if old := in.Value(); old != v {
			changes = append(changes, tr.t(what, shown(old), shown(v)))
			in.SetValue(v)
		}
	}
	if k, ok := kindLabelKey(to); ok && isDefaultName(ed.inputs[fName].Value(), from) {
		set(fName, ed.kinds.uniqueName(tr.t(k)), mEdChangedName)
	}
	set(fCommand, ed.kinds.kindCommand(to), mEdChangedCommand)
	set(fOptions, "", mEdChangedOptions)
	if from == KindCLI {
		set(fResume, "", mEdChangedResume)
	}
	if to == KindCodexCLI {
		ed.acc.AppServer = ed.orig.Kind != KindCodexCLI || ed.orig.AppServer
	}
	if to == KindClaudeCode {
		// Cards appear in manual; an account that was Claude Code keeps its own.
		ed.acc.PermissionMode = PermissionManual
		if ed.orig.Kind == KindClaudeCode {
			ed.acc.PermissionMode = ed.orig.PermissionMode
		}
	}
	msg := tr.t(mEdKindChanged, kindLabel(e, to))
	if len(changes) > 0 {
		msg += tr.t(mEdChangedWith) + strings.Join(changes, tr.t(mEdChangeSep)) + tr.t(mEdChangeEnd)
	}
	ed.msg, ed.msgErr = msg, false
}
