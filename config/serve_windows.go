package config

// checkPrivateDir: Windows' server listens on a named pipe whose ACL
// admits only the user (not built yet, docs/serve.md "Windows"); the
// directory of a socket is not used there.
func checkPrivateDir(string) error { return nil }
