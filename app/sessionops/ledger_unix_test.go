//go:build unix

package sessionops

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLedgerLinkIsNotWrittenThrough: a link planted at the ledger's path
// after it was read is replaced by the next save, never written through
// (breaker review of issue 32: WriteFileAtomic resolved the link).
func TestLedgerLinkIsNotWrittenThrough(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	l, _, err := loadLedger(path, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	if err := l.save(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
		t.Errorf("the ledger went through the link: the target holds %q", b)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("ledger: %v %v, want a regular file", fi, err)
	}
}
