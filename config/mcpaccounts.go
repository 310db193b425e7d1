package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pullcept/pullcept/room/textcut"
)

// Local MCP servers and their accounts (spec «ローカル MCP サーバ», «アカウント»
// #193, #200): every entry of mcp-servers.json has an account of kind mcp
// whose Server is the entry's name; the server's notices are that
// account's posts.

// MCPAccountIDPrefix starts the id of the account Load makes for an entry
// that has none: "mcp-" + the entry's name. The id comes from the name, so
// the account a server speaks as before the next save is the one the file
// gets on it, and the same entry made again has the same id.
const MCPAccountIDPrefix = "mcp-"

// defaultMCPServerName is a new entry's name when the account's name has
// nothing but spaces.
const defaultMCPServerName = "mcp-server"

// WebhookServerName is the default entry's name: the github-webhook-mcp
// bridge (spec «webhook の通知» #169, «ローカル MCP サーバ» #172).
const WebhookServerName = "github-webhook-mcp"

// webhookCommand runs the bridge script (spec: command node, the script's
// absolute path its one argument, no env).
const webhookCommand = "node"

// CheckMCPServerName refuses an entry name Pullcept will not write: empty
// or only spaces, or one an account could not be called (checkNameText:
// a control, bidi or invisible character, over MaxNameRunes characters) —
// the entry's account is named after it. Errors wrap ErrBadName.
func CheckMCPServerName(name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("server name: %w: it is empty", ErrBadName)
	}
	if err := checkNameText(name); err != nil {
		return fmt.Errorf("server name %q: %w", name, err)
	}
	return nil
}

// NewMCPServerName is the entry name for a new mcp account named
// accountName: the name with each run of spaces made one "-" (the ends
// dropped), "mcp-server" when nothing else is left, cut so it stays an
// account name (MaxNameRunes). When that name is in use it gets "-2",
// "-3", … — in use: an entry in entries, the Server of an mcp account in
// accounts, or a name whose account id ("mcp-" + name) an account holds.
// Names are compared exactly, as JSON keys are.
func NewMCPServerName(accountName string, entries []string, accounts []Account) string {
	base := strings.Join(strings.Fields(accountName), "-")
	if base == "" {
		base = defaultMCPServerName
	}
	taken := map[string]bool{}
	for _, e := range entries {
		taken[e] = true
	}
	for _, a := range accounts {
		if a.Kind == KindMCP && a.Server != "" {
			taken[a.Server] = true
		}
		if name, ok := strings.CutPrefix(a.ID, MCPAccountIDPrefix); ok {
			taken[name] = true
		}
	}
	name := textcut.Runes(base, MaxNameRunes)
	for n := 2; taken[name]; n++ {
		suffix := "-" + strconv.Itoa(n)
		name = textcut.Runes(base, MaxNameRunes-len(suffix)) + suffix
	}
	return name
}

// AddMCPAccounts gives every entry of servers that has no account of kind
// mcp whose Server is its name one (spec «アカウント» #193): id "mcp-" +
// the entry's name, the entry's name as name, kind mcp, Server the entry's
// name, no hue. Accounts already there are never changed. An entry is
// skipped, with a warning naming the file and the entry's key, when its
// name could not be an account's (CheckMCPServerName), its id is another
// account's, or its name is one the rule for every account refuses
// (checkIdentity: Pullcept's own, another account's display name, the
// human's name or nickname — case and width folded; issue 32: a server
// named like the human spoke under the human's name). Nothing is written:
// the accounts reach config.json on the next Save (until then each Load
// makes them again, with the same ids) and mcp-servers.json is never
// changed here. It returns the ids added and the warnings.
func (c *Config) AddMCPAccounts(servers []MCPServer) (added, warnings []string) {
	where := MCPServersFileName
	has := map[string]bool{}
	for _, a := range c.Accounts {
		if a.Kind == KindMCP {
			has[a.Server] = true
		}
	}
	for _, s := range servers {
		if has[s.Name] {
			continue
		}
		a := Account{ID: MCPAccountIDPrefix + s.Name, Name: s.Name, Kind: KindMCP, Server: s.Name}
		err := CheckMCPServerName(s.Name)
		switch {
		case err == nil && c.Index(a.ID) >= 0:
			err = fmt.Errorf("its id %s is another account's", a.ID)
		case err == nil:
			err = c.checkIdentity(a)
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: server %q gets no account: %v", where, s.Name, err))
			continue
		}
		c.Accounts = append(c.Accounts, a)
		has[s.Name] = true
		added = append(added, a.ID)
	}
	return added, warnings
}

// loadMCPAccounts is Load's step for mcp-servers.json: the accounts of its
// entries (AddMCPAccounts), or a warning when the file cannot be read —
// config.json still loads, and the file is left as it is.
func (c *Config) loadMCPAccounts(dir string) []string {
	servers, err := NewMCPServers(dir).List()
	if err != nil {
		return []string{fmt.Sprintf("%v: its servers get no accounts until it is fixed", err)}
	}
	_, warnings := c.AddMCPAccounts(servers)
	return warnings
}

// DefaultWebhookEntry is mcp-servers.json's default entry (spec «ローカル MCP
// サーバ» #172): github-webhook-mcp, run as `node <bridge script>`, no env.
// find looks for the bridge script; the entry exists only when it names an
// absolute path to a regular file that is there now — ok is false
// otherwise (and for a nil find), and nothing may be written: a path
// written once is read from then on as the person's own choice.
func DefaultWebhookEntry(find func() (string, bool)) (MCPServer, bool) {
	if find == nil {
		return MCPServer{}, false
	}
	path, ok := find()
	if !ok || !filepath.IsAbs(path) {
		return MCPServer{}, false
	}
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return MCPServer{}, false
	}
	return MCPServer{Name: WebhookServerName, Command: webhookCommand, Args: []string{path}}, true
}
