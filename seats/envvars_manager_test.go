//go:build unix

package seats

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
)

// TestManagerRefusesAnEnvThatWillNotOpen: a seat whose stored value cannot
// be opened (here: sealed, and no vault to open it) is refused before it
// takes its place: the error names the variable and not the sealed text,
// nothing is written into its directory, and once the value is fixed the
// same seat starts (the place was never claimed).
func TestManagerRefusesAnEnvThatWillNotOpen(t *testing.T) {
	t.Parallel()
	r := newManagerRig(t)
	a := r.fakeAccount(t, "sealed", "")
	a.Env = append(a.Env, config.EnvVar{Name: "GH_TOKEN", Sealed: "keyring:0011aabb:c2VjcmV0LWNpcGhlcnRleHQ"})
	r.book.put(a)
	_, err := r.m.Start("t-env", a.ID, 80, 24)
	if !errors.Is(err, config.ErrNoSecretStore) || !strings.Contains(err.Error(), "GH_TOKEN") || strings.Contains(err.Error(), "c2VjcmV0") {
		t.Fatalf("start = %v; want ErrNoSecretStore naming GH_TOKEN only", err)
	}
	if _, err := os.Stat(filepath.Join(a.WorkDir, ".mcp.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused seat wrote .mcp.json (stat: %v)", err)
	}
	if _, ok := r.m.Seat("t-env", a.ID); ok {
		t.Fatal("a refused seat is listed")
	}
	a.Env[len(a.Env)-1] = config.EnvVar{Name: "GH_TOKEN", Value: "in-the-clear"}
	r.book.put(a)
	if _, err := r.m.Start("t-env", a.ID, 80, 24); err != nil {
		t.Fatalf("start after the value was fixed: %v", err)
	}
}
