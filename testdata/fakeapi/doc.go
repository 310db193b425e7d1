// Package fakeapi is the only fake part of Pullcept's end-to-end tests
// (docs/design.md §13 "End to end with real clients no one here wrote"): a scripted
// model API that the real Claude Code and Codex CLIs talk to on loopback, and
// the harness that prepares those CLIs to run offline in a test.
//
// One Server answers both wire formats on one 127.0.0.1 listener:
//
//   - the Anthropic Messages API (Claude Code): POST /v1/messages, streamed as
//     server-sent events; base URL = Server.URL() (ANTHROPIC_BASE_URL);
//   - the OpenAI Responses API (Codex CLI): POST /v1/responses, streamed as
//     server-sent events; base URL = Server.URL() + "/v1" (config.toml
//     model_providers.<id>.base_url);
//   - for Codex's release check, the ChatGPT backend's plan usage: GET
//     /backend-api/wham/usage (Options.CodexUsage; chatgpt_base_url =
//     Server.URL() + "/backend-api", CodexSetup.ChatGPTLogin).
//
// Every request is parsed into an API-neutral Request (messages, tools, tool
// results, the [pullcept] tagged posts in the newest user input), recorded
// with the Reply the server sent, and can be waited for (Server.Wait). The
// reply comes from Options.Respond, or by default from Script, which behaves
// like a model that knows the room protocol: a tagged post → a say_to_room
// call (after a tool-search step when the CLI defers MCP tools), the tool's
// result → a short final text, and optionally a re-send of the sidecar's kept
// draft after a floor rejection (docs/design.md §2, §7). Rules (rules.go) is
// the demo's mode instead (`make demo`, docs/design.md §13): a script kept as
// data that answers only what is for its seat, calls tools and restarts its
// seat on the post's words.
//
// The harness (harness.go) writes the pre-seeded configuration that skips
// every first-run screen (PrepareClaude, PrepareCodex), builds a clean
// environment whose only network endpoint is the fake, and locates the pinned
// CLI binaries (FindCLI, CLIPath). The measured recipes behind every setting
// are in docs/clis.md.
//
// Goroutines: Server.Start runs one accept goroutine (owner: the Server,
// ended and waited for by Close); net/http runs one goroutine per connection
// and recovers handler panics. Nothing else runs in the background.
//
// Lock order: Server.mu only (recording); it is never held while writing a
// response.
package fakeapi
