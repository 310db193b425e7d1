// Package sessionops runs the session operations a seat asks for through
// its room tools — start, stop or restart its own seat or another account's
// (docs/design.md §15) — and keeps their ledger, session-operations.json in
// the data directory.
//
// The room (room.SessionOps) hands it each request with the seat launch
// that asked (its token's binding, never a hello's claim). Control checks
// the request, records it as accepted — written to disk before anything
// runs — and queues it; the worker runs it under the seat's lifecycle lock
// (the human's start and stop take the same lock), records each state
// (running, then process_started, stopped or failed) and posts one app
// notice in the requester's room. A retry with the same operation id
// returns the record; unfinished records become interrupted at Close and
// at the next Open, never run again.
//
// Goroutines: one worker (owner: Ops; ends at Close; waited for by Wait),
// with a recover.
//
// Lock order: Ops.mu is taken alone; the worker never holds it while it
// calls the Host (seats, hub), which may take seconds.
package sessionops
