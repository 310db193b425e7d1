//go:build unix && !linux

package config

// holderKnown: outside Linux the refusal names the holder from the pid
// note only.
func holderKnown() bool { return false }
