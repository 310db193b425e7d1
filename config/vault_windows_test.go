package config

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// testVault is this system's vault for a test: DPAPI on Windows (and under
// Wine in make wine).
func testVault(t *testing.T) Vault {
	t.Helper()
	return SystemVault()
}

// TestDPAPIVault: a value is sealed as "dpapi:" and lower-case hex (the
// original app's format) that holds nothing of the value; it opens again,
// also for an empty value and non-ASCII text; the app entropy is mixed in
// (a bare CryptUnprotectData without it fails, with it succeeds, as the
// original app's opening does); a value sealed by the keyring scheme, a
// damaged blob and bad hex are each ErrEnvUnopenable with the reason.
func TestDPAPIVault(t *testing.T) {
	t.Parallel()
	v := SystemVault()
	for _, plain := range []string{token, "日本語=値 \"quoted\"", "x"} {
		sealed, err := v.Seal(plain)
		if err != nil {
			t.Fatal(err)
		}
		h, ok := strings.CutPrefix(sealed, "dpapi:")
		if !ok || strings.ToLower(h) != h || strings.Contains(sealed, plain) {
			t.Fatalf("sealed %q as %q", plain, sealed)
		}
		if got, err := v.Open(sealed); err != nil || got != plain {
			t.Fatalf("open = %q, %v; want %q", got, err, plain)
		}
	}
	sealed, err := v.Seal(token)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := hex.DecodeString(strings.TrimPrefix(sealed, "dpapi:"))
	unprotect := func(entropy []byte) (string, error) {
		var out windows.DataBlob
		var ent *windows.DataBlob
		if entropy != nil {
			ent = blob(entropy)
		}
		if err := windows.CryptUnprotectData(blob(raw), nil, ent, 0, nil, windows.CRYPTPROTECT_UI_FORBIDDEN, &out); err != nil {
			return "", err
		}
		defer windows.LocalFree(windows.Handle(unsafe.Pointer(out.Data)))
		return string(unsafe.Slice(out.Data, out.Size)), nil
	}
	if _, err := unprotect(nil); err == nil {
		t.Error("a bare CryptUnprotectData (no entropy) opened the value")
	}
	if got, err := unprotect([]byte("pullcept/account-env/v1")); err != nil || got != token {
		t.Errorf("CryptUnprotectData with the original app's entropy = %q, %v", got, err)
	}
	tampered := []byte(sealed)
	last := len(tampered) - 1
	tampered[last] = map[bool]byte{true: '1', false: '0'}[tampered[last] == '0']
	for _, bad := range []string{string(tampered), "dpapi:zz", "dpapi:", "keyring:0011aabb:AAAA", "plain"} {
		if _, err := v.Open(bad); !errors.Is(err, ErrEnvUnopenable) {
			t.Errorf("Open(%.30q) = %v, want ErrEnvUnopenable", bad, err)
		} else {
			t.Logf("%.20q: %v", bad, err)
		}
	}
}
