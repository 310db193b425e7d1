package config

// lockOpenFlags is nothing on Windows: no FIFOs in the file system, and
// OpenRegular's Lstat refused a link before gofrs/flock opens the file.
const lockOpenFlags = 0

// lockTableHolder: Windows does not say who holds a LockFileEx range; the
// refusal falls back to the pid note.
func lockTableHolder(string) (int, string) { return 0, "" }
