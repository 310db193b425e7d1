// Package peer reads what the kernel says of the process on the other end
// of a local socket — its pid and uid (Linux SO_PEERCRED, macOS
// LOCAL_PEERPID/LOCAL_PEERCRED) — and walks a process's parents. The room
// uses it to know a seat by its process tree rather than by a token alone,
// and the app to refuse a seat that attaches as the human
// (docs/design.md §16 "Threat model"). No goroutines, no locks.
package peer

// InTree reports whether pid is root or one of root's descendants.
func InTree(pid, root int) bool {
	return pid > 0 && root > 0 && (pid == root || Descends(pid, root))
}
