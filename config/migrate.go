package config

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Legacy kind names of the original app (spec «既存設定からの移行»).
const (
	// legacyKindAI is the single launched kind before kinds were split; it
	// is inferred again from the command, like a missing kind.
	legacyKindAI = "ai"
	// legacyKindUser is the admin kind's name before #192.
	legacyKindUser = "user"
)

// SessionIDFlag is Claude Code's flag for a fresh session's id. The Claude
// kind adds it itself, so it is stripped from that kind's launch options
// (docs/design.md §9).
const SessionIDFlag = "--session-id"

// SessionIDPlaceholder is where a launch line takes the session id; it is
// substituted once, after the line is built (docs/design.md §9).
const SessionIDPlaceholder = "{session_id}"

// InferKind reads a kind from a command, the way a kind-less or legacy "ai"
// account is migrated: the command's base name (either path separator,
// case-insensitive, without .exe/.cmd/.bat/.com/.ps1) "claude" is
// KindClaudeCode, one starting with "codex" is KindCodexCLI, anything else
// KindCLI. The editor may use it to suggest a kind; it never overrides a
// declared one.
func InferKind(command string) Kind {
	base := strings.TrimSpace(command)
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	base = strings.ToLower(base)
	for _, ext := range []string{".exe", ".cmd", ".bat", ".com", ".ps1"} {
		base = strings.TrimSuffix(base, ext)
	}
	switch {
	case base == "claude":
		return KindClaudeCode
	case strings.HasPrefix(base, "codex"):
		return KindCodexCLI
	}
	return KindCLI
}

// migrateAccount applies the original app's migrations to one account read
// from the file and says what it changed:
//
//   - kind missing, empty or "ai": inferred from the command (InferKind);
//     "user": admin; any other unknown kind is an ErrBadKind error;
//   - a legacy "args" word array (and no launch_options): joined into
//     launch_options;
//   - an inferred Claude account's resume command: dropped when it is the
//     kind's own ("claude --resume {session_id}"), else kept and the kind
//     becomes cli, the kind that reads it (spec 決定6);
//   - a Claude account's --session-id (either form) stripped from its launch
//     options: the kind adds it (決定3).
func migrateAccount(a *Account) ([]string, error) {
	var warnings []string
	inferred := false
	switch string(a.Kind) {
	case "", legacyKindAI:
		was := string(a.Kind)
		a.Kind = InferKind(a.Command)
		inferred = true
		if was == "" {
			warnings = append(warnings, fmt.Sprintf("no kind: %q inferred from command %q", a.Kind, a.Command))
		} else {
			warnings = append(warnings, fmt.Sprintf("kind %q read as %q from command %q", was, a.Kind, a.Command))
		}
	case legacyKindUser:
		a.Kind = KindAdmin
		warnings = append(warnings, fmt.Sprintf("kind %q read as %q", legacyKindUser, KindAdmin))
	default:
		if !a.Kind.Valid() {
			return nil, fmt.Errorf("%w %q (want admin, claude_code, codex_cli, cli or mcp)", ErrBadKind, a.Kind)
		}
	}
	if raw, ok := a.raw.Get(keyLegacyArgs); ok && a.LaunchOptions == "" && !a.raw.Has(keyLaunchOptions) {
		var args []string
		if err := json.Unmarshal(raw, &args); err == nil {
			a.LaunchOptions = JoinWords(args)
			a.raw.Delete(keyLegacyArgs)
			if a.LaunchOptions != "" {
				warnings = append(warnings, fmt.Sprintf("%q read into %q", keyLegacyArgs, keyLaunchOptions))
			}
		}
	}
	if inferred && a.Kind == KindClaudeCode && a.ResumeLine != "" {
		if isClaudeDefaultResume(a.ResumeLine) {
			warnings = append(warnings, fmt.Sprintf("resume command %q dropped: the claude_code kind resumes by itself", a.ResumeLine))
			a.ResumeLine = ""
		} else {
			a.Kind = KindCLI
			warnings = append(warnings, fmt.Sprintf("kind set to %q to keep its own resume command %q", KindCLI, a.ResumeLine))
		}
	}
	if a.Kind == KindClaudeCode && a.LaunchOptions != "" {
		if words, err := SplitWords(a.LaunchOptions); err == nil {
			if kept, removed := RemoveFlag(words, SessionIDFlag); removed != nil {
				a.LaunchOptions = JoinWords(kept)
				warnings = append(warnings, fmt.Sprintf("%s removed from launch options (the claude_code kind adds the session id itself)", strings.Join(removed, ", ")))
			}
		}
	}
	return warnings, nil
}

// isClaudeDefaultResume reports whether line says what the Claude kind does
// anyway: "<claude> --resume {session_id}" (or -r, or --resume=…).
func isClaudeDefaultResume(line string) bool {
	w, err := SplitWords(line)
	if err != nil || len(w) < 2 || InferKind(w[0]) != KindClaudeCode {
		return false
	}
	switch {
	case len(w) == 3 && (w[1] == "--resume" || w[1] == "-r") && w[2] == SessionIDPlaceholder:
		return true
	case len(w) == 2 && w[1] == "--resume="+SessionIDPlaceholder:
		return true
	}
	return false
}
