//go:build !linux && !windows

package config

import "testing"

// testVault: on macOS the keyring vault would use the person's own login
// keychain, so the vault tests run on Linux (a private Secret Service) and
// Windows (DPAPI) only.
func testVault(t *testing.T) Vault {
	t.Helper()
	t.Skip("the keyring vault is tested on Linux with a private Secret Service, not in this login keychain")
	return nil
}
