// Package config owns the data directory (docs/design.md §12), config.json
// (accounts, decoded with encoding/json so ids and env names keep their
// case), its migration from the original app's shapes, and validation. It
// also defines the syntax of the account fields the launch builder reads:
// launch-options and resume lines (SplitWords, JoinWords) and env var lines
// (ParseEnv, MaskedValue). Writes are atomic (temp file, fsync, rename;
// WriteFileAtomic) and keep every key we did not write, in place (Object).
//
// Viper layers only a scalar override (PULLCEPT_LANGUAGE over config.json's
// "language", UI): it lower-cases keys, and config.json is keyed by account
// ids and env var names, so it never reads a map.
//
// Goroutines: none. Lock order: none (callers serialise writes).
package config
