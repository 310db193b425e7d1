// Package limits decides the usage-limit episodes of a seat
// (docs/design.md §11 "Usage limits"; spec
// «Codex の席が利用上限で止まったとき（#294）», «止まっている席の印（#312）»,
// «Claude 親の利用上限と手動再開（#342）», «利用上限の通知主体を移行する（#355）»,
// «解除予定時刻に親の再開を試す（#357）»).
//
// A Limiter is the decision half, with no clock, goroutine or I/O of its
// own: the seat's watcher feeds it what the transcript or rollout says
// (Event), the time (Tick) and, for Codex, the release check's answer;
// it returns what to do (Action) — room notices, the resume prompt,
// the marker, a release check, log lines. The stop is read from the
// CLI's own record, never from usage percentages; a release is never
// guessed: Claude's is its next normal parent answer, Codex's the
// server's "ordinary usage allowed".
//
// Nothing here runs a goroutine or takes a lock: a Limiter belongs to one
// seat, and its caller serializes it (the seats Manager, under the seat's
// limit lock, runs the actions it returns).
package limits
