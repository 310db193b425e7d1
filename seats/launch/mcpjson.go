package launch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/room"
)

// MCPKeyPrefix starts every .mcp.json key Pullcept writes; entries under it
// that carry another room URL are a past run's and are removed
// (docs/design.md §9).
const MCPKeyPrefix = "pullcept-room"

// MCP key shape (docs/design.md §9): "pullcept-room-<slug>-<hash>" of at most
// MaxMCPKeyLen characters, so the longest room tool name
// "mcp__<key>__control_account_session" (5+34+2+23) stays within the
// model APIs' 64-character tool-name limit.
const (
	MaxMCPKeyLen = 34
	// mcpKeyHashLen hex digits (40 bits) of SHA-256(account, topic): one
	// directory's live keys collide with odds ~n²/2⁴¹, negligible for the
	// dozens of seats a run has.
	mcpKeyHashLen = 10
	// mcpKeySlugLen is what is left for legibility: 34 - len("pullcept-room-") - 1 - 10.
	mcpKeySlugLen = MaxMCPKeyLen - len(MCPKeyPrefix) - 2 - mcpKeyHashLen
)

// MCP settings files in a seat's working directory.
const (
	mcpJSONName       = ".mcp.json"
	claudeLocalConfig = ".claude/settings.local.json"
	mcpJSONServers    = "mcpServers"
	// mcpJSONPerm is the mode of a .mcp.json we create (it holds no secret:
	// the token is never written).
	mcpJSONPerm fs.FileMode = 0o644
)

// SidecarArgs are the arguments that start our sidecar (docs/design.md §7).
var SidecarArgs = []string{room.SidecarCommand}

// MCPKey returns the .mcp.json server key of (accountID, topicID)
// (docs/design.md §9): "pullcept-room-<slug>-<hash>" where slug is the
// account id's ASCII letters and digits, lower-cased, other runs folded to
// one "-", cut to 9 characters (legibility only), and hash is the first 10
// hex digits of SHA-256 over both ids (identity). It depends on ids only, so
// a rename never moves a running seat's entry. At most MaxMCPKeyLen
// characters, always [a-z0-9-].
func MCPKey(accountID, topicID string) string {
	var slug []byte
	for i := 0; i < len(accountID) && len(slug) < mcpKeySlugLen; i++ {
		c := accountID[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			slug = append(slug, c)
		case c >= 'A' && c <= 'Z':
			slug = append(slug, c+'a'-'A')
		case len(slug) > 0 && slug[len(slug)-1] != '-':
			slug = append(slug, '-')
		}
	}
	sum := sha256.Sum256([]byte(accountID + "\x00" + topicID))
	hash := hex.EncodeToString(sum[:])[:mcpKeyHashLen]
	s := strings.Trim(string(slug), "-")
	if s == "" {
		return MCPKeyPrefix + "-" + hash
	}
	return MCPKeyPrefix + "-" + s + "-" + hash
}

// ToolName is the full name a Claude seat calls tool by: mcp__<key>__<tool>.
func ToolName(key, tool string) string { return "mcp__" + key + "__" + tool }

// MCPEntry is what one seat's .mcp.json entry says (docs/design.md §7): the
// absolute pullcept path started with "sidecar", and the sidecar's variables.
// The room URL is Register's currentRoomURL. The token is never part of it.
type MCPEntry struct {
	// Key is the server key; "" means MCPKey(AccountID, TopicID).
	Key           string
	PullceptPath  string
	AgentName     string
	AccountID     string
	TopicID       string
	Hue           *int
	UnseenHistory bool
}

// EntryFor is the entry of account a's seat in topicID.
func EntryFor(a config.Account, topicID, pullceptPath string, unseenHistory bool) MCPEntry {
	return MCPEntry{
		Key:           MCPKey(a.ID, topicID),
		PullceptPath:  pullceptPath,
		AgentName:     a.DisplayName(),
		AccountID:     a.ID,
		TopicID:       topicID,
		Hue:           a.Hue,
		UnseenHistory: unseenHistory,
	}
}

func (e MCPEntry) key() string {
	if e.Key != "" {
		return e.Key
	}
	return MCPKey(e.AccountID, e.TopicID)
}

// State is what a seat directory's .mcp.json holds for one launch, as
// registering leaves it: the launch builds Claude's disabledMcpjsonServers
// from Others.
type State struct {
	// Path is <dir>/.mcp.json.
	Path string
	// Key is the seat's own key.
	Key string
	// Others are the other pullcept-room* keys that survive registration
	// (live siblings of this run, and entries without a room URL), in file
	// order, then (InspectMCPJSON only) every pullcept-room* key in the
	// .mcp.json files of parent directories, which Claude Code also reads.
	// The CLI starts every enabled server it finds, so a Claude seat
	// disables these (#103).
	Others []string
	// Dead are pullcept-room* keys whose room URL is not the current one: a
	// past run's, removed by Register.
	Dead []string
	// Created: Register made the file (there was none), so the seat's
	// Unregister removes it again once nothing else is in it.
	Created bool
}

// mcpJSONLocks serialises read-modify-write of one .mcp.json within this
// process (two seats of one directory starting at once). Keyed by the
// cleaned absolute path; entries live for the process (one per directory).
var mcpJSONLocks sync.Map

func lockMCPJSON(path string) func() {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	m, _ := mcpJSONLocks.LoadOrStore(filepath.Clean(path), new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// InspectMCPJSON reads <dir>/.mcp.json without writing and says what it will
// hold once the seat with ownKey registers into currentRoomURL (same
// predicate as Register). The launch reads it before anything is written,
// so a refusal (e.g. ErrOwnSettings) leaves the file untouched; the
// editor's preview reads it too. A missing file or directory is an empty
// state. Errors wrap ErrMCPJSON (invalid JSON, wrong shape).
func InspectMCPJSON(dir, ownKey, currentRoomURL string) (State, error) {
	path := filepath.Join(dir, mcpJSONName)
	unlock := lockMCPJSON(path)
	defer unlock()
	_, servers, _, err := readMCPJSON(path, true)
	if err != nil {
		return State{}, err
	}
	st := survey(path, ownKey, currentRoomURL, servers)
	st.Others = append(st.Others, roomKeysAbove(dir, ownKey, st.Others)...)
	return st, nil
}

// roomKeysAbove lists the pullcept-room* keys in the .mcp.json files of dir's
// parent directories, up to the root, skipping ownKey and seen. Claude Code
// loads .mcp.json "here or above" (its trust screen says so): a seat in a
// sub-directory of another seat's directory would otherwise stop at a "new
// MCP servers found" dialog for that seat's entry (measured: a seat under
// /tmp/x after a generic seat registered into /tmp/.mcp.json). Unreadable
// or invalid files are skipped: they are not ours to judge here.
func roomKeysAbove(dir, ownKey string, seen []string) []string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	have := map[string]bool{ownKey: true}
	for _, k := range seen {
		have[k] = true
	}
	var keys []string
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if _, servers, _, err := readMCPJSON(filepath.Join(d, mcpJSONName), false); err == nil {
			for _, k := range servers.Keys() {
				if strings.HasPrefix(k, MCPKeyPrefix) && !have[k] {
					have[k] = true
					keys = append(keys, k)
				}
			}
		}
		if parent := filepath.Dir(d); parent == d {
			break
		}
	}
	return keys
}

// Register writes the seat's entry into <dir>/.mcp.json (docs/design.md §7,
// §9): mcpServers[key] = {"type": "stdio", "command": <pullcept path>,
// "args": ["sidecar"], "env": {PULLCEPT_ROOM_URL, _AGENT_NAME, _ACCOUNT_ID,
// _ROOM_ID, _HUE (when declared), _UNSEEN_HISTORY (when set)}, "alwaysLoad":
// true}. It removes pullcept-room* entries whose PULLCEPT_ROOM_URL differs
// from currentRoomURL (a past run's, unreachable), keeps entries without that
// variable, and keeps every other key and entry as written, in place. A
// missing file is created; the write is atomic. Invalid JSON in the user's
// file is an error wrapping ErrMCPJSON and the file is untouched. The token
// is never written. It returns the state after the write.
func Register(dir string, entry MCPEntry, currentRoomURL string) (State, error) {
	key := entry.key()
	switch {
	case !filepath.IsAbs(entry.PullceptPath):
		return State{}, fmt.Errorf("register %s: %w: %q", key, ErrNoPullceptPath, entry.PullceptPath)
	case currentRoomURL == "":
		return State{}, fmt.Errorf("register %s: %w: no room URL", key, ErrRoomAddress)
	}
	path := filepath.Join(dir, mcpJSONName)
	unlock := lockMCPJSON(path)
	defer unlock()
	top, servers, before, err := readMCPJSON(path, true)
	if err != nil {
		return State{}, err
	}
	st := survey(path, key, currentRoomURL, servers)
	for _, k := range st.Dead {
		servers.Delete(k)
	}
	var env config.Object
	for _, v := range SidecarVars(currentRoomURL, entry.AgentName, entry.AccountID, entry.TopicID, entry.Hue, entry.UnseenHistory) {
		if err := env.SetValue(v.Name, v.Value); err != nil {
			return State{}, err
		}
	}
	var own config.Object
	for _, f := range []struct {
		k string
		v any
	}{
		{"type", "stdio"}, {"command", entry.PullceptPath}, {"args", SidecarArgs}, {"env", env}, {"alwaysLoad", true},
	} {
		if err := own.SetValue(f.k, f.v); err != nil {
			return State{}, err
		}
	}
	if err := servers.SetValue(key, own); err != nil {
		return State{}, err
	}
	if err := top.SetValue(mcpJSONServers, servers); err != nil {
		return State{}, err
	}
	if err := writeMCPJSON(path, top, before); err != nil {
		return State{}, err
	}
	st.Created = before == nil
	return st, nil
}

// Unregister removes key from <dir>/.mcp.json, keeping everything else. A
// missing file or key is not an error (nothing to remove). created says
// the seat's Register made the file: when it is then left as nothing but an
// empty mcpServers, it is removed (a seat in the home folder left
// {"mcpServers": {}} there).
func Unregister(dir, key string, created bool) error {
	path := filepath.Join(dir, mcpJSONName)
	unlock := lockMCPJSON(path)
	defer unlock()
	top, servers, before, err := readMCPJSON(path, true)
	if err != nil || before == nil || !servers.Has(key) {
		return err
	}
	servers.Delete(key)
	if created && len(servers.Keys()) == 0 && len(top.Keys()) == 1 {
		return os.Remove(path)
	}
	if err := top.SetValue(mcpJSONServers, servers); err != nil {
		return err
	}
	return writeMCPJSON(path, top, before)
}

// CheckDisabled reports whether <dir>/.claude/settings.local.json lists key
// in disabledMcpjsonServers. Claude Code writes that when someone answered
// "continue without" to the new-server prompt, and it wins over our
// enabledMcpjsonServers. We never edit that file; the caller says "the seat
// cannot reach the room because .claude/settings.local.json disables <key>
// (a past 'continue without' answer); remove it there". A missing file is
// false; invalid JSON is an error wrapping ErrMCPJSON.
func CheckDisabled(dir, key string) (bool, error) {
	path := filepath.Join(dir, filepath.FromSlash(claudeLocalConfig))
	data, err := config.ReadRegularFile(path, mcpJSONMax, true)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	var top config.Object
	if err := json.Unmarshal(data, &top); err != nil {
		return false, fmt.Errorf("%w: %s %w", ErrMCPJSON, path, jsonProblem(data, err, "its top level"))
	}
	raw, ok := top.Get("disabledMcpjsonServers")
	if !ok || string(raw) == "null" {
		return false, nil
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		return false, fmt.Errorf("%w: %s: disabledMcpjsonServers is not a list of names", ErrMCPJSON, path)
	}
	for _, n := range names {
		if n == key {
			return true, nil
		}
	}
	return false, nil
}

// mcpJSONMax bounds a .mcp.json or settings file we read: they hold a few
// server entries. A planted /dev/zero link or a sparse 64 GB file took the
// app down with out-of-memory before this.
const mcpJSONMax = 1 << 20

// readMCPJSON reads path into its top object and its mcpServers object.
// before is the file's bytes (nil when it does not exist). Only a regular
// file of at most mcpJSONMax bytes is read (config.ReadRegularFile): a FIFO
// or device is refused without blocking; own (the seat's file, which we
// write) also refuses a symbolic link, whose target our rename would not
// replace — a parent's, only read, may be a link, as the CLI follows it.
// A key named twice is refused (config.ErrDuplicateKey).
func readMCPJSON(path string, own bool) (top, servers config.Object, before []byte, err error) {
	data, err := config.ReadRegularFile(path, mcpJSONMax, !own)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return config.Object{}, config.Object{}, nil, nil
	case errors.Is(err, config.ErrSymlink):
		return top, servers, nil, fmt.Errorf("%w: %s is a symbolic link; Pullcept writes this file and will not write through a link (replace it with a regular file)", ErrMCPJSON, path)
	case err != nil:
		return top, servers, nil, fmt.Errorf("%w: read %s: %w", ErrMCPJSON, path, err)
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return top, servers, nil, fmt.Errorf("%w: %s %w (fix or move it before starting a seat)", ErrMCPJSON, path, jsonProblem(data, err, "its top level"))
	}
	if raw, ok := top.Get(mcpJSONServers); ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return top, servers, nil, fmt.Errorf("%w: %s %w (fix or move it before starting a seat)", ErrMCPJSON, path, jsonProblem(nil, err, mcpJSONServers))
		}
	}
	return top, servers, data, nil
}

// errNotJSON is what jsonProblem says of a file that does not parse.
var errNotJSON = errors.New("is not valid JSON")

// jsonProblem says what is wrong with a settings file without quoting it:
// the file is someone else's, its keys and values may be text written to
// be read as ours, and the refusal reaches Pullcept's notices, typed into
// every seat (docs/design.md §16 "Planted files"). It names where (line
// and column of data, or the object, where) and wraps the sentinel
// (config.ErrDuplicateKey), never the decoder's message.
func jsonProblem(data []byte, err error, where string) error {
	var syn *json.SyntaxError
	switch {
	case errors.Is(err, config.ErrDuplicateKey):
		return fmt.Errorf("is refused: %w in %s (Pullcept will not guess which one counts)", config.ErrDuplicateKey, where)
	case errors.As(err, &syn) && data != nil:
		line, col := lineCol(data, syn.Offset)
		return fmt.Errorf("%w (line %d, column %d)", errNotJSON, line, col)
	case errors.As(err, &syn):
		return fmt.Errorf("%w (in %s)", errNotJSON, where)
	}
	return fmt.Errorf("is refused: %s is not a JSON object", where)
}

// lineCol maps a byte offset of data to a 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	line, col = 1, 1
	for _, c := range data[:min(max(offset, 0), int64(len(data)))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// survey applies the registration predicate to servers: which
// pullcept-room* keys are dead (another room URL) and which stay.
func survey(path, ownKey, currentRoomURL string, servers config.Object) State {
	st := State{Path: path, Key: ownKey}
	for _, k := range servers.Keys() {
		if !strings.HasPrefix(k, MCPKeyPrefix) || k == ownKey {
			continue
		}
		raw, _ := servers.Get(k)
		if url, ok := entryRoomURL(raw); ok && url != currentRoomURL {
			st.Dead = append(st.Dead, k)
			continue
		}
		st.Others = append(st.Others, k)
	}
	return st
}

// entryRoomURL is the PULLCEPT_ROOM_URL string of an entry, if it has one.
func entryRoomURL(raw json.RawMessage) (string, bool) {
	var e struct {
		Env map[string]json.RawMessage `json:"env"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return "", false
	}
	v, ok := e.Env[room.EnvRoomURL]
	if !ok {
		return "", false
	}
	var url string
	if json.Unmarshal(v, &url) != nil {
		return "", false
	}
	return url, true
}

// writeMCPJSON writes top atomically unless the bytes would not change.
func writeMCPJSON(path string, top config.Object, before []byte) error {
	data, err := config.EncodeIndented(top)
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if before != nil && string(data) == string(before) {
		return nil
	}
	// The read refused a link; one swapped in since is replaced, not written
	// through (docs/design.md §16 "Planted files").
	return config.AtomicFile{NoFollow: true}.Write(path, data, mcpJSONPerm)
}
