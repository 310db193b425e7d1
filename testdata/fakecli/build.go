package fakecli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built is the pullcept executable PullceptBinary built for this test
// binary; Run removes its directory after the tests.
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// PullceptBinary builds github.com/pullcept/pullcept once per test binary
// (the seats' sidecar and status-line command, or the app itself) and
// returns its absolute path. It fails t when the build fails.
func PullceptBinary(t testing.TB) string {
	t.Helper()
	b := &built
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "pullcept-test-bin-")
		if b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "pullcept")
		out, err := exec.Command("go", "build", "-o", b.path, "github.com/pullcept/pullcept").CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("go build pullcept: %w\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatalf("%v", b.err)
	}
	return b.path
}

func removeBuilt() {
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}
