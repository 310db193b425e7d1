//go:build windows

package app

import (
	"fmt"

	"golang.org/x/sys/windows"
)

// systemOpen opens path with the program Windows associates with its type
// (ShellExecuteW, verb "open"): no cmd.exe, so the path is never read as a
// command line; runnable types never reach here (runnable).
func systemOpen(path string) error {
	verb, err := windows.UTF16PtrFromString("open")
	if err != nil {
		return err
	}
	file, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return fmt.Errorf("path %q: %w", path, err)
	}
	if err := windows.ShellExecute(0, verb, file, nil, nil, windows.SW_SHOWNORMAL); err != nil {
		return fmt.Errorf("ShellExecute: %w", err)
	}
	return nil
}
