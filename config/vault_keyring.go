//go:build !windows

package config

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/zalando/go-keyring"
)

// The keyring item that holds the key sealing every env var value: one per
// OS user, as Electron's safeStorage keeps one ("Chrome Safe Storage").
const (
	keyringService = "pullcept"
	keyringUser    = "env-values-key"
	keyringKeySize = 32 // AES-256
)

// keyringVault seals with AES-256-GCM under a random key the OS keyring
// keeps (go-keyring: Secret Service over D-Bus on Linux, the login keychain
// on macOS). The key is made on the first seal, read once and kept in
// memory. mu is a leaf lock; keyring calls run under it, so two seals never
// both make a key.
type keyringVault struct {
	mu  sync.Mutex
	key []byte
	id  string // sealKeyID(key)
}

func newSystemVault() Vault { return &keyringVault{} }

// sealKeyID names a key in the values it sealed: a value sealed under a key
// that was replaced is told apart from a damaged one.
func sealKeyID(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:4])
}

// errNoKey: the keyring answered but holds no pullcept key.
var errNoKey = errors.New("the OS keyring holds no pullcept key")

// keyringHint says what to do when no keyring answers.
func keyringHint() string {
	if runtime.GOOS == "darwin" {
		return "unlock the login keychain, or leave the value empty and set it in the shell Pullcept runs in"
	}
	return "unlock the keyring, or start a Secret Service in this session (gnome-keyring, KeePassXC), or leave the value empty and set it in the shell Pullcept runs in"
}

// current is the key and its id: held, else read from the keyring, else
// (create) made and stored. A failed read never makes a key: a keyring that
// did not answer may still hold the one the stored values need.
func (k *keyringVault) current(create bool) ([]byte, string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != nil {
		return k.key, k.id, nil
	}
	err := k.load()
	if errors.Is(err, errNoKey) && create {
		err = k.makeKey()
	}
	if err != nil {
		return nil, "", err
	}
	return k.key, k.id, nil
}

// load reads the key from the keyring. Holds k.mu.
func (k *keyringVault) load() error {
	s, err := keyring.Get(keyringService, keyringUser)
	switch {
	case errors.Is(err, keyring.ErrNotFound):
		return errNoKey
	case err != nil:
		return fmt.Errorf("%w: the OS keyring did not answer or refused (%v); %s", ErrNoSecretStore, err, keyringHint())
	}
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(key) != keyringKeySize {
		return fmt.Errorf("%w: the pullcept key in the OS keyring (service %q, account %q) is damaged; values sealed with it cannot be opened", ErrNoSecretStore, keyringService, keyringUser)
	}
	k.key, k.id = key, sealKeyID(key)
	return nil
}

// makeKey stores a new random key, then reads back what the keyring holds:
// when another Pullcept stored one at the same moment, both use the one
// that won. Holds k.mu.
func (k *keyringVault) makeKey() error {
	key := make([]byte, keyringKeySize)
	if _, err := rand.Read(key); err != nil {
		return fmt.Errorf("%w: make a key: %v", ErrNoSecretStore, err)
	}
	if err := keyring.Set(keyringService, keyringUser, base64.StdEncoding.EncodeToString(key)); err != nil {
		return fmt.Errorf("%w: the OS keyring refused to store a key (%v); %s", ErrNoSecretStore, err, keyringHint())
	}
	return k.load()
}

// forget drops the held key when it is still id, so the next call reads
// the keyring again (another Pullcept may have replaced it).
func (k *keyringVault) forget(id string) {
	k.mu.Lock()
	if k.id == id {
		k.key, k.id = nil, ""
	}
	k.mu.Unlock()
}

func aead(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Seal encrypts plain under the keyring's key (made on first use).
func (k *keyringVault) Seal(plain string) (string, error) {
	key, id, err := k.current(true)
	if err != nil {
		return "", err
	}
	gcm, err := aead(key)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoSecretStore, err)
	}
	nonce := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoSecretStore, err)
	}
	sealed := gcm.Seal(nonce, nonce, []byte(plain), vaultEntropy)
	return schemeKeyring + id + ":" + base64.RawStdEncoding.EncodeToString(sealed), nil
}

// Open decrypts a value Seal made.
func (k *keyringVault) Open(sealed string) (string, error) {
	rest, ok := strings.CutPrefix(sealed, schemeKeyring)
	if !ok {
		return "", otherScheme(sealed)
	}
	id, data, ok := strings.Cut(rest, ":")
	raw, err := base64.RawStdEncoding.DecodeString(data)
	if !ok || err != nil {
		return "", unopenable("it is damaged in the file")
	}
	key, kid, err := k.current(false)
	if kid != id && err == nil {
		k.forget(kid)
		key, kid, err = k.current(false)
	}
	switch {
	case errors.Is(err, errNoKey):
		return "", unopenable("the OS keyring holds no pullcept key (it was removed, or this file comes from another user or machine)")
	case err != nil:
		return "", err
	case kid != id:
		return "", unopenable("it was sealed with another pullcept key (another user or machine, or the key in the OS keyring was replaced)")
	}
	gcm, err := aead(key)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoSecretStore, err)
	}
	if len(raw) < gcm.NonceSize() {
		return "", unopenable("it is damaged in the file")
	}
	plain, err := gcm.Open(nil, raw[:gcm.NonceSize()], raw[gcm.NonceSize():], vaultEntropy)
	if err != nil {
		return "", unopenable("it is damaged in the file")
	}
	return string(plain), nil
}
