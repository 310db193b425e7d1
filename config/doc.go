// Package config owns the data directory (DESIGN §12), config.json (accounts,
// decoded with encoding/json so ids and env names keep their case),
// mcp-servers.json, their migration from the original app's shapes, and
// validation. Writes are atomic (temp file, fsync, rename) and keep every key
// we did not write.
//
// Goroutines: none. Lock order: none (callers serialise writes).
package config
