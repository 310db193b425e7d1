package attachclient

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// detach makes cmd start the server so that closing this terminal does
// not end it (docs/serve.md "Windows"):
//
//   - CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW: a hidden console of its
//     own, so the tab's Ctrl+C and CTRL_CLOSE_EVENT reach the tab's
//     console, not the server's, and the seats' ConPTYs start from a
//     console no one sees (not DETACHED_PROCESS: no console at all);
//   - out of this process's job (jobFlags): Windows Terminal runs a tab's
//     programs in a job that ends them with the tab.
//
// The readiness pipe is inherited as a handle (Windows has no descriptor
// 3); it returns the handle's number for ReadyFDFlag, which the server
// opens with os.NewFile.
func detach(cmd *exec.Cmd, ready *os.File) (string, error) {
	job, err := jobFlags()
	if err != nil {
		return "", err
	}
	h := windows.Handle(ready.Fd())
	if err := windows.SetHandleInformation(h, windows.HANDLE_FLAG_INHERIT, windows.HANDLE_FLAG_INHERIT); err != nil {
		return "", fmt.Errorf("readiness pipe: %w", err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags:              windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW | job,
		AdditionalInheritedHandles: []syscall.Handle{syscall.Handle(h)},
	}
	return strconv.FormatUint(uint64(h), 10), nil
}

// startFailed says why cmd did not start: a refused breakaway (a job
// further up that forbids it) is ErrNoDetachedStart.
func startFailed(cmd *exec.Cmd, err error) error {
	if cmd.SysProcAttr != nil && cmd.SysProcAttr.CreationFlags&windows.CREATE_BREAKAWAY_FROM_JOB != 0 &&
		errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return fmt.Errorf("%w (leaving the job was refused: %v)", ErrNoDetachedStart, err)
	}
	return fmt.Errorf("start the server: %w", err)
}

var procIsProcessInJob = windows.NewLazySystemDLL("kernel32.dll").NewProc("IsProcessInJob")

// jobFlags is the creation flag that takes the server out of this
// process's job: none outside a job or in one whose children leave it by
// themselves, CREATE_BREAKAWAY_FROM_JOB where the job allows it, and
// ErrNoDetachedStart where it does not (Windows Terminal's tabs).
func jobFlags() (uint32, error) {
	var in int32
	if r, _, err := procIsProcessInJob.Call(uintptr(windows.CurrentProcess()), 0, uintptr(unsafe.Pointer(&in))); r == 0 {
		return 0, fmt.Errorf("is this process in a job: %w", err)
	}
	if in == 0 {
		return 0, nil
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	// Job 0: the job this process is in (the innermost, when nested).
	if err := windows.QueryInformationJobObject(0, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0, fmt.Errorf("%w (its limits cannot be read: %v)", ErrNoDetachedStart, err)
	}
	return breakaway(info.BasicLimitInformation.LimitFlags)
}

// breakaway decides from a job's limit flags (jobFlags).
func breakaway(limits uint32) (uint32, error) {
	switch {
	case limits&windows.JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK != 0:
		return 0, nil
	case limits&windows.JOB_OBJECT_LIMIT_BREAKAWAY_OK != 0:
		return windows.CREATE_BREAKAWAY_FROM_JOB, nil
	}
	return 0, ErrNoDetachedStart
}
