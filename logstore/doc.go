// Package logstore owns the topic logs on disk (docs/design.md §8; spec «部屋のログ»,
// «トピック»): <data>/logs/main/index.json, one <topic>.jsonl per topic
// (append only, one post per line) and attachments/<topic>/.
//
// The directory is the truth and the index annotates it. Reads never fail on
// a bad line: torn or garbage lines are skipped and counted. Long topics are
// read from the tail backwards, never loaded whole.
//
// Writes: Append is one write() of one line through a cached O_APPEND handle
// (the room calls it under its lock); the index is rewritten atomically
// (temporary file, fsync, rename, directory fsync) only on intentional acts —
// first post, seat start, session record, rename, delete, migration.
//
// Goroutines: none. Lock order: Store.idxMu (index, topic scan) → Store.mu
// (open files, read state, warnings) → one topic file's lock. Append takes
// Store.mu only to find its file, then that file's lock; no call made under
// these locks calls back out of the package.
package logstore
