package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// MCPServersFileName is the file of the local MCP servers Pullcept runs as
// its own MCP client (spec «ローカル MCP サーバ» #172, #193), in the data
// directory next to config.json and in Claude Desktop's shape:
//
//	{"mcpServers": {"<entry>": {"command": "…", "args": ["…"], "env": {"K": "V"}}}}
//
// It is a file people open and edit by hand, unlike config.json, which
// every account save rewrites whole. Env values are stored as written, in
// the clear, as Claude Desktop stores them (their default use is a URL, not
// a token; an account's env is sealed instead, EnvVar).
const MCPServersFileName = "mcp-servers.json"

// MaxMCPServersBytes bounds the file read: it holds a few entries. A FIFO,
// a device or a huge file in its place is refused, never read into memory
// (ReadRegularFile), and never overwritten.
const MaxMCPServersBytes = 1 << 20

// Keys of mcp-servers.json: the servers object and the three keys of an
// entry Pullcept writes. Every other key, at any level, is kept as written.
const (
	keyMCPServers = "mcpServers"
	keyMCPCommand = "command"
	keyMCPArgs    = "args"
	keyMCPEnv     = "env"
)

// MCPEnv is one variable of a server entry's env, as written (the value in
// the clear).
type MCPEnv struct {
	Name, Value string
}

// MCPServer is one entry of mcp-servers.json as List reads it. Name is the
// entry's key; Env keeps the file's order. Err, when not nil, says why the
// entry cannot be run as it is (it is not an object, it has no command,
// or its command, args or env have the wrong type; it wraps ErrBadFile or
// ErrNoCommand); the fields then hold what could be read.
type MCPServer struct {
	Name    string
	Command string
	Args    []string
	Env     []MCPEnv
	Err     error
}

// MCPServers is <data dir>/mcp-servers.json. Every operation reads the file
// afresh (a hand edit made while Pullcept runs is never lost) and a change
// writes it atomically (WriteFileAtomic: a symbolic link is written through
// to its target, an existing file keeps its permission bits, a new one is
// 0600), keeping every key and entry it did not write, in place, with the
// same JSON tokens (number literals, string escapes): only the layout is
// the two-space indent of every file Pullcept writes, so a file in that
// layout keeps those bytes exactly. A file that is not a regular file of
// at most MaxMCPServersBytes, not JSON, not an object, or names one key
// twice in one object is refused (ErrBadFile, with ErrNotRegular,
// ErrTooBig or ErrDuplicateKey where they apply) and never overwritten.
// Safe for concurrent use; the data directory's lock keeps other
// Pullcepts out (LockDataDir).
type MCPServers struct {
	dir string
	mu  sync.Mutex // serialises each read-change-write
}

// NewMCPServers is the mcp-servers.json of the data directory dir. Nothing
// is read until an operation.
func NewMCPServers(dir string) *MCPServers {
	return &MCPServers{dir: dir}
}

// Path is the file's path.
func (s *MCPServers) Path() string { return filepath.Join(s.dir, MCPServersFileName) }

// List returns the entries in file order. A missing file, or one without
// "mcpServers", is no servers. Errors: the file's (see MCPServers); a bad
// entry is not an error of List but its own MCPServer.Err.
func (s *MCPServers) List() ([]MCPServer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := readMCPFile(s.Path())
	if err != nil {
		return nil, err
	}
	out := make([]MCPServer, 0, len(f.entries.keys))
	for _, name := range f.entries.Keys() {
		raw, _ := f.entries.Get(name)
		out = append(out, readMCPEntry(f.path, name, raw))
	}
	return out, nil
}

// Exists reports whether the file is there (whatever it holds).
func (s *MCPServers) Exists() (bool, error) {
	_, err := os.Lstat(s.Path())
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, err
}

// SetServer writes the entry name's "command", "args" and "env" and
// nothing else: the entry's other keys, the other entries and every other
// key of the file stay as written. An entry that does not exist is added
// at the end (and the file, and the data directory, made when missing).
// Empty args or env leave an absent key absent and empty a present one;
// env is written in the order given. The name must be one an account can
// be called (CheckMCPServerName: its mcp account is named after it); the
// command is trimmed and required (ErrNoCommand); env names follow
// ParseMCPEnv's rules (checkMCPEnvNames). Nothing is written on any error,
// and nothing when the bytes would not change. An entry that is not a JSON
// object is refused (ErrBadFile): what it meant is not ours to guess.
func (s *MCPServers) SetServer(name, command string, args []string, env []MCPEnv) error {
	if err := CheckMCPServerName(name); err != nil {
		return err
	}
	command = strings.TrimSpace(command)
	if command == "" {
		return fmt.Errorf("server %q: %w", name, ErrNoCommand)
	}
	if err := checkMCPEnvNames(env); err != nil {
		return fmt.Errorf("server %q: env: %w", name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := readMCPFile(s.Path())
	if err != nil {
		return err
	}
	var entry Object
	if raw, ok := f.entries.Get(name); ok {
		if err := json.Unmarshal(raw, &entry); err != nil {
			return fmt.Errorf("%w: %s: server %q: %w (fix it by hand; Pullcept left it as it is)", ErrBadFile, f.path, name, err)
		}
	}
	if err := setMCPEntry(&entry, command, args, env); err != nil {
		return fmt.Errorf("server %q: %w", name, err)
	}
	if err := f.entries.SetValue(name, entry); err != nil {
		return err
	}
	return f.write(s.dir)
}

// setMCPEntry sets command, args and env on entry (see SetServer).
func setMCPEntry(entry *Object, command string, args []string, env []MCPEnv) error {
	if err := entry.SetValue(keyMCPCommand, command); err != nil {
		return err
	}
	if len(args) > 0 || entry.Has(keyMCPArgs) {
		if args == nil {
			args = []string{}
		}
		if err := entry.SetValue(keyMCPArgs, args); err != nil {
			return err
		}
	}
	if len(env) > 0 || entry.Has(keyMCPEnv) {
		var vars Object
		for _, v := range env {
			if err := vars.SetValue(v.Name, v.Value); err != nil {
				return err
			}
		}
		if err := entry.SetValue(keyMCPEnv, vars); err != nil {
			return err
		}
	}
	return nil
}

// RemoveServer removes the entry name and nothing else. A missing file or
// entry is no change: nothing is written, and a missing file is not made.
// Errors: the file's (see MCPServers).
func (s *MCPServers) RemoveServer(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := readMCPFile(s.Path())
	if err != nil {
		return err
	}
	if f.before == nil || !f.entries.Has(name) {
		return nil
	}
	f.entries.Delete(name)
	return f.write(s.dir)
}

// WriteDefault writes the default entry (DefaultWebhookEntry) when the file
// does not exist and find names the bridge: spec «ローカル MCP サーバ» writes
// the bundled bridge as the default only then — a path written once is read
// from then on as the person's own choice, so one that was never found is
// never written. It reports whether it wrote.
func (s *MCPServers) WriteDefault(find func() (string, bool)) (bool, error) {
	if ok, err := s.Exists(); err != nil || ok {
		return false, err
	}
	e, ok := DefaultWebhookEntry(find)
	if !ok {
		return false, nil
	}
	if err := s.SetServer(e.Name, e.Command, e.Args, e.Env); err != nil {
		return false, err
	}
	return true, nil
}

// mcpFile is mcp-servers.json as read: its top object, its servers object
// and its bytes (nil: there is no file).
type mcpFile struct {
	path    string
	before  []byte
	top     Object
	entries Object
}

// readMCPFile reads and checks the file at path (see MCPServers).
func readMCPFile(path string) (mcpFile, error) {
	f := mcpFile{path: path}
	data, err := ReadRegularFile(path, MaxMCPServersBytes, true)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, nil
	case err != nil:
		return f, fmt.Errorf("%w: %w (Pullcept leaves it as it is)", ErrBadFile, err)
	}
	if err := json.Unmarshal(data, &f.top); err != nil {
		return f, fmt.Errorf("%w: %w", ErrBadFile, jsonFileError(path, data, err))
	}
	if raw, ok := f.top.Get(keyMCPServers); ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &f.entries); err != nil {
			return f, fmt.Errorf("%w: %s: %s: %w", ErrBadFile, path, keyMCPServers, err)
		}
	}
	f.before = data
	return f, nil
}

// write puts the servers back into the top object and writes the file
// atomically, unless its bytes would not change. dir is made when missing.
func (f *mcpFile) write(dir string) error {
	top := f.top.Clone()
	if err := top.SetValue(keyMCPServers, f.entries); err != nil {
		return err
	}
	data, err := EncodeIndented(top)
	if err != nil {
		return fmt.Errorf("encode %s: %w", f.path, err)
	}
	if f.before != nil && string(data) == string(f.before) {
		return nil
	}
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	return WriteFileAtomic(f.path, data, filePerm)
}

// readMCPEntry reads one entry, its problems in Err (see MCPServer).
func readMCPEntry(path, name string, raw json.RawMessage) MCPServer {
	s := MCPServer{Name: name}
	bad := func(err error) MCPServer {
		s.Err = fmt.Errorf("%w: %s: server %q: %w", ErrBadFile, path, name, err)
		return s
	}
	var o Object
	if err := json.Unmarshal(raw, &o); err != nil {
		return bad(err)
	}
	var errs []error
	if v, ok := o.Get(keyMCPCommand); ok && string(v) != "null" {
		if json.Unmarshal(v, &s.Command) != nil {
			errs = append(errs, fmt.Errorf("%s: want a string, got %s", keyMCPCommand, jsonKind(v)))
		}
	}
	if v, ok := o.Get(keyMCPArgs); ok && string(v) != "null" {
		if json.Unmarshal(v, &s.Args) != nil {
			errs = append(errs, fmt.Errorf("%s: want a list of strings, got %s", keyMCPArgs, jsonKind(v)))
		}
	}
	if v, ok := o.Get(keyMCPEnv); ok && string(v) != "null" {
		env, err := readMCPEnv(v)
		if err != nil {
			errs = append(errs, err)
		}
		s.Env = env
	}
	if err := errors.Join(errs...); err != nil {
		return bad(err)
	}
	if strings.TrimSpace(s.Command) == "" {
		s.Err = fmt.Errorf("%s: server %q: %w", path, name, ErrNoCommand)
	}
	return s
}

// readMCPEnv reads an entry's env object of strings, in file order.
func readMCPEnv(raw json.RawMessage) ([]MCPEnv, error) {
	var vars Object
	if err := json.Unmarshal(raw, &vars); err != nil {
		return nil, fmt.Errorf("%s: want an object of strings: %w", keyMCPEnv, err)
	}
	env := make([]MCPEnv, 0, len(vars.keys))
	for _, k := range vars.Keys() {
		v, _ := vars.Get(k)
		var val string
		if json.Unmarshal(v, &val) != nil {
			return env, fmt.Errorf("%s: %s: want a string, got %s", keyMCPEnv, k, jsonKind(v))
		}
		env = append(env, MCPEnv{Name: k, Value: val})
	}
	return env, nil
}
