package attachclient

import "syscall"

// detached: CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW, a hidden console
// of its own (docs/serve.md "Windows"; the server does not run on Windows
// yet, so nothing starts it there).
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: 0x00000200 | 0x08000000}
}
