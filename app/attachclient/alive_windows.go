package attachclient

import "golang.org/x/sys/windows"

// stillActive is GetExitCodeProcess's answer while a process runs.
const stillActive = 259

// processAlive: pid names a process that has not ended. A process object
// outlives its end while anyone holds a handle to it (its starter's
// cmd.Wait does), so its exit code says, not whether it can be opened.
func processAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer func() { _ = windows.CloseHandle(h) }()
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}
