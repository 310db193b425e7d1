// Package cli is what every CLI kind's seat adapter implements and shares
// (docs/architecture.md "Seat kinds"): the Adapter (its launch line, resume
// rule and per launch a Run), the Seat a Run sees of its live seat, and the
// values a CLI reports — Activity, Usage, the permission wait that holds a
// seat's typing (PermWait, HoldPermission, HoldAnswered) — with the
// helpers the kinds read their files with (Tail, EpochTime). The kinds
// live in seats/cli/claude, seats/cli/codex and seats/cli/generic; the
// seats Manager registers them (seats/kinds.go).
//
// It runs no goroutine and takes no lock: a Run's Seat is the seats
// Manager's, whose lock order (seats/doc.go) covers Seat.Report.
package cli
