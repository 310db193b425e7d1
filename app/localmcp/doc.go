// Package localmcp runs Pullcept's own local MCP servers (spec «ローカル MCP
// サーバ», «webhook の通知»): processes Pullcept starts itself over stdio,
// as an MCP client (mark3labs/mcp-go), whose channel pushes
// (notifications/claude/channel, as github-webhook-mcp sends them) become
// notices for the rooms.
//
// A Supervisor keeps each server by name: its state (NotStarted, Starting,
// Running, Exited, Failed, Stopped), the last MaxLogLines lines of its
// stderr plus Pullcept's own lines about it (kept across its restarts), and
// its current run. It starts a server when told (no shell: a command and its
// arguments; env added to Pullcept's own), stops it (stdin closed, the
// process tree killed after a grace: the process group on Unix, taskkill /T
// on Windows) and never restarts one by itself.
//
// Notices: every channel push with an event id (meta.message_id) becomes
// one call of Options.OnNotice, per server in arrival order. A push that
// may carry a body written by the operation itself (by its summary's
// "[type]" and "action:" lines) waits up to Options.SignatureWait for the
// bridge's get_event; a body whose last line is "— <name>" gives the notice
// Notice.Signer, apart from its text, which the server alone writes (spec
// #269, #270; issue 32). Every notice gets the line
// ProcessedLine+id once, before a last line that is a URL or at the end
// (spec #410). Pullcept calls no tool but get_event: never mark_processed
// (spec #180). A push without an event id is dropped and logged; when the
// queue (Options.QueueLen, and 1 MiB of content) is full, pushes are
// dropped and counted. The brake (brake.go) lets Options.NoticeBurst pushes
// through at once, then one per Options.NoticeEvery, and folds the rest
// (and the dropped ones) into a count for Options.OnFolded.
//
// Goroutines: per run, its lifecycle, the process waiter, the stdout pump,
// the stderr reader, the initialize call and the notice worker (run's doc),
// each with a recover that logs into the server's log and stops the run;
// the lifecycle waits for the others, and Stop and Close wait for the
// lifecycle. mcp-go's transport reader (one per run) ends when the pump
// closes its input. OnNotice and OnFolded run on the notice worker.
//
// Lock order: Supervisor.mu, then nothing: a server's log lock and the
// change Signal are leaves, and no callback is called with a lock held.
package localmcp
