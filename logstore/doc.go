// Package logstore owns the topic logs on disk (DESIGN §8; spec «部屋のログ»,
// «トピック»): <data>/logs/main/index.json, one <topic>.jsonl per topic
// (append only, one post per line) and attachments/<topic>/.
//
// The directory is the truth and the index annotates it. Reads never fail on
// a bad line: torn or garbage lines are skipped and counted. Long topics are
// read from the tail backwards, never loaded whole.
//
// Goroutines: none. Lock order: Store.mu only (index and open files).
package logstore
