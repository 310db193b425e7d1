// Package config owns the data directory (docs/design.md §12), config.json
// (accounts, decoded with encoding/json so ids and env names keep their
// case), its migration from the original app's shapes, and validation;
// and mcp-servers.json, the local MCP servers Pullcept runs (MCPServers:
// Claude Desktop's mcpServers shape, edited in place; the text fields of
// its editor, ParseMCPArgs and ParseMCPEnv; an mcp account for every entry,
// made at Load, AddMCPAccounts). It also defines the syntax of the account
// fields the launch builder reads: launch-options and resume lines
// (SplitWords, JoinWords) and the env field (SettleEnv, RenderEnv,
// MaskValue). Env values are sealed at rest by
// a Vault (SystemVault: DPAPI on Windows, the OS keyring through
// zalando/go-keyring on macOS and Linux) and opened only for a launch
// (OpenEnv); config.json never holds one Pullcept wrote in the clear.
// The UI's settings live in config.json too: "keys", "language", "theme"
// (UI) and the brake (Brake); the settings overlay changes language, theme
// and brake through Book.SetSettings, which checks them and saves at
// once.
// Writes are atomic (temp file, fsync, rename; WriteFileAtomic) and keep
// every key we did not write, in place (Object).
//
// Viper layers only a scalar override (PULLCEPT_LANGUAGE over config.json's
// "language", UI): it lower-cases keys, and config.json is keyed by account
// ids and env var names, so it never reads a map.
//
// Goroutines: none. Lock order: Book.mu is a leaf, and so is MCPServers.mu
// (held across one read-change-write of mcp-servers.json); the keyring
// vault's lock is a leaf too, and keyring calls (D-Bus, the security tool)
// run under it but never under Book.mu.
package config
