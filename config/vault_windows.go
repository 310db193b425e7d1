package config

import (
	"encoding/hex"
	"fmt"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

// dpapiVault seals with DPAPI (CryptProtectData) in the current user's
// scope with vaultEntropy, as the original app did (spec
// «アカウントは環境変数を持つ»): the key is tied to the signed-in Windows
// user, the mechanism Electron's safeStorage rests on there. The
// Credential Manager is not used (the spec's decision). Stateless, so safe
// for concurrent use.
type dpapiVault struct{}

func newSystemVault() Vault { return dpapiVault{} }

// blob points a DataBlob at b (nil data for an empty b).
func blob(b []byte) *windows.DataBlob {
	d := &windows.DataBlob{Size: uint32(len(b))}
	if len(b) > 0 {
		d.Data = &b[0]
	}
	return d
}

// take copies DPAPI's output and hands its buffer back to LocalFree, which
// owns it.
func take(out windows.DataBlob) []byte {
	if out.Data == nil {
		return nil
	}
	b := make([]byte, out.Size)
	copy(b, unsafe.Slice(out.Data, out.Size))
	_, _ = windows.LocalFree(windows.Handle(unsafe.Pointer(out.Data)))
	return b
}

// Seal encrypts plain with CryptProtectData. No UI ever: a seal that would
// need one fails instead.
func (dpapiVault) Seal(plain string) (string, error) {
	var out windows.DataBlob
	err := windows.CryptProtectData(blob([]byte(plain)), nil, blob(vaultEntropy), 0, nil, windows.CRYPTPROTECT_UI_FORBIDDEN, &out)
	if err != nil {
		return "", fmt.Errorf("%w: DPAPI CryptProtectData failed (%v)", ErrNoSecretStore, err)
	}
	return schemeDPAPI + hex.EncodeToString(take(out)), nil
}

// Open decrypts a value Seal (or the original app) made. The OS error is
// safe to show: DPAPI puts nothing of the value into it.
func (dpapiVault) Open(sealed string) (string, error) {
	h, ok := strings.CutPrefix(sealed, schemeDPAPI)
	if !ok {
		return "", otherScheme(sealed)
	}
	raw, err := hex.DecodeString(h)
	if err != nil || len(raw) == 0 {
		return "", unopenable("it is damaged in the file")
	}
	var out windows.DataBlob
	err = windows.CryptUnprotectData(blob(raw), nil, blob(vaultEntropy), 0, nil, windows.CRYPTPROTECT_UI_FORBIDDEN, &out)
	if err != nil {
		return "", unopenable(fmt.Sprintf("DPAPI cannot open it (%v): sealed by another Windows user or machine, or damaged", err))
	}
	return string(take(out)), nil
}
