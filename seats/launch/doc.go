// Package launch builds a seat's launch line (docs/design.md §9, §7): what
// every CLI kind shares — the account's checks, its environment (the
// account's opened values, the app's own variables, what a seat does not
// inherit: BaseEnv, SeatGetenv), the launch options split and checked for
// cmd.exe, {session_id}, the preview — around the kind's own part (Kind,
// implemented by the seat kinds' adapters in seats/cli/...). It also owns
// the seat directory's .mcp.json (MCPKey, Register, Unregister,
// InspectMCPJSON, CheckDisabled) and the helpers a kind's line writes with
// (Builder.EncodeJSON, Builder.TOMLString, RoomPrompt, SidecarVars).
//
// It runs no goroutine. The .mcp.json writes of one directory are
// serialized by a per-directory lock (mcpJSONLocks), a leaf.
package launch
