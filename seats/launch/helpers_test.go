package launch

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/pullcept/pullcept/config"
)

// The launch package's test fixtures (the kinds' tests have their own).
const (
	testTopic = "t-1"
	testRoom  = "ws://127.0.0.1:4100/room"
)

// testRoot is an absolute root on the running OS.
func testRoot() string {
	if runtime.GOOS == "windows" {
		return `C:\`
	}
	return "/"
}

var testPullcept = filepath.Join(testRoot(), "opt", "pullcept", "bin", "pullcept")

func testEntry(account, topic string) MCPEntry {
	hue := 145
	return EntryFor(config.Account{ID: account, Name: "Claude " + account, Nickname: "N" + account, Hue: &hue}, topic, testPullcept, false)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
