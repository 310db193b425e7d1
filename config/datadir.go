package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// EnvHome names the variable that overrides the data directory (docs/design.md §12).
const EnvHome = "PULLCEPT_HOME"

// appDirName is the data directory's name under the OS config dir.
const appDirName = "pullcept"

// DataDir returns the absolute data directory (docs/design.md §12): $PULLCEPT_HOME
// when set and non-empty, else os.UserConfigDir()/pullcept
// (~/.config/pullcept on Linux, ~/Library/Application Support/pullcept on
// macOS, %AppData%\pullcept on Windows). It does not create the directory.
// The error wraps ErrNoDataDir when neither is known.
func DataDir() (string, error) {
	if home := os.Getenv(EnvHome); home != "" {
		abs, err := filepath.Abs(home)
		if err != nil {
			return "", fmt.Errorf("%w: %s=%q: %w", ErrNoDataDir, EnvHome, home, err)
		}
		return abs, nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("%w: set %s: %w", ErrNoDataDir, EnvHome, err)
	}
	return filepath.Join(base, appDirName), nil
}
