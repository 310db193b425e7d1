package attachclient

import "os"

// processAlive: no server runs on Windows yet (docs/serve.md); FindProcess
// opens a handle only to a running process.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
