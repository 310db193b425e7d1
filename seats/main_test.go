package seats

import (
	"os"
	"testing"

	"github.com/pullcept/pullcept/testdata/fakecli"
)

// TestMain runs the fake CLI when a seat re-executes this test binary as
// its command (testdata/fakecli), and the tests otherwise.
func TestMain(m *testing.M) { os.Exit(fakecli.Run(m)) }
