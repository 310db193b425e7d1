package tui

import "slices"

// Claude Code's permission modes the editor offers (config.PermissionModes
// says the same; tui does not import config): the mode a seat starts in,
// given as --permission-mode (docs/design.md §9 "Permission mode").
// PermissionManual is the one in which the CLI asks before each tool, so
// cards appear; new Claude Code accounts start in it (issue 35).
const (
	PermissionManual      = "manual"
	PermissionAuto        = "auto"
	PermissionPlan        = "plan"
	PermissionAcceptEdits = "acceptEdits"
)

// PermissionModes is the editor's cycle, "" (the CLI's own settings) last.
var PermissionModes = []string{PermissionManual, PermissionAuto, PermissionPlan, PermissionAcceptEdits, ""}

// cycleMode steps mode by d through PermissionModes; a mode the editor does not
// offer (config.json may name the CLI's quiet ones) steps to the first.
func cycleMode(mode string, d int) string {
	i := slices.Index(PermissionModes, mode)
	if i < 0 {
		return PermissionModes[0]
	}
	return PermissionModes[(i+d+len(PermissionModes))%len(PermissionModes)]
}

// permModeWords are the mode's name and what it means for cards.
func permModeWords(mode string) (name, hint msgKey) {
	switch mode {
	case PermissionManual:
		return mEdPermManual, mEdPermManualHint
	case PermissionAuto:
		return mEdPermAuto, mEdPermAutoHint
	case PermissionPlan:
		return mEdPermPlan, mEdPermPlanHint
	case PermissionAcceptEdits:
		return mEdPermAcceptEdits, mEdPermAcceptEditsHint
	case "":
		return mEdPermCLI, mEdPermCLIHint
	}
	return mEdPermOther, mEdPermOtherHint
}
