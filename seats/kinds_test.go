package seats

import (
	"os"
	"testing"

	"github.com/pullcept/pullcept/testdata/launchkit"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
)

// buildLaunch is launch.Build with the Adapter of in's kind (nil for a kind
// that does not launch).
func buildLaunch(in launch.Input) (launch.Launch, error) {
	var k launch.Kind
	if ad, ok := newKinds(ManagerOptions{})[in.Account.Kind]; ok {
		k = ad
	}
	return launch.Build(in, k)
}

// prepareLaunch is launch.Prepare with the Adapter of in's kind.
func prepareLaunch(in launch.Input) (launch.Launch, error) {
	return launch.Prepare(in, newKinds(ManagerOptions{})[in.Account.Kind])
}

// conversationOf is what a's kind says of a conversation it has no file of.
func conversationOf(a config.Account) cli.Conversation {
	c, _ := newKinds(ManagerOptions{})[a.Kind].Conversation(a, "id", func(string) string { return "" })
	return c
}

func testEntry(account, topic string) launch.MCPEntry {
	hue := 145
	return launch.EntryFor(config.Account{ID: account, Name: "Claude " + account, Nickname: "N" + account, Hue: &hue}, topic, launchkit.Pullcept, false)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
