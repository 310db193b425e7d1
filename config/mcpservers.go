package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MCPServersFileName is the local MCP servers file in the data directory
// (DESIGN §12), in Claude Desktop's shape:
// {"mcpServers": {"<name>": {"command": …, "args": […], "env": {…}}}}.
const MCPServersFileName = "mcp-servers.json"

const keyMCPServers = "mcpServers"

// MCPServer is one entry of mcp-servers.json: what Pullcept runs as its own
// MCP client for an mcp account (spec «ローカル MCP サーバ»). Env keeps the
// file's order; values are stored as written (they configure the server,
// they are not account secrets). Unknown keys of the entry are kept.
type MCPServer struct {
	Command string
	Args    []string
	Env     []EnvVar

	raw Object
}

// MarshalJSON writes command, args and env over the entry as read.
func (s MCPServer) MarshalJSON() ([]byte, error) {
	o := s.raw.Clone()
	if err := o.SetValue("command", s.Command); err != nil {
		return nil, err
	}
	args := s.Args
	if args == nil {
		args = []string{}
	}
	if err := o.SetValue("args", args); err != nil {
		return nil, err
	}
	if len(s.Env) == 0 {
		o.Delete("env")
	} else {
		var env Object
		for _, v := range s.Env {
			if err := env.SetValue(v.Name, v.Value); err != nil {
				return nil, err
			}
		}
		if err := o.SetValue("env", env); err != nil {
			return nil, err
		}
	}
	return o.MarshalJSON()
}

// UnmarshalJSON reads one entry; known keys must have the right types.
func (s *MCPServer) UnmarshalJSON(data []byte) error {
	var o Object
	if err := json.Unmarshal(data, &o); err != nil {
		return err
	}
	*s = MCPServer{raw: o}
	if v, ok := o.Get("command"); ok && string(v) != "null" {
		if err := json.Unmarshal(v, &s.Command); err != nil {
			return fmt.Errorf("command: want a string, got %s", jsonKind(v))
		}
	}
	if v, ok := o.Get("args"); ok && string(v) != "null" {
		if err := json.Unmarshal(v, &s.Args); err != nil {
			return fmt.Errorf("args: want a list of strings, got %s", jsonKind(v))
		}
	}
	if v, ok := o.Get("env"); ok && string(v) != "null" {
		var env Object
		if err := json.Unmarshal(v, &env); err != nil {
			return fmt.Errorf("env: want an object of strings, got %s", jsonKind(v))
		}
		for _, k := range env.Keys() {
			raw, _ := env.Get(k)
			var val string
			if err := json.Unmarshal(raw, &val); err != nil {
				return fmt.Errorf("env: %s: want a string, got %s", k, jsonKind(raw))
			}
			s.Env = append(s.Env, EnvVar{Name: k, Value: val})
		}
	}
	return nil
}

// MCPServers is mcp-servers.json: the servers in file order plus every other
// key as written. Not safe for concurrent use.
type MCPServers struct {
	top     Object
	names   []string
	servers map[string]MCPServer
	exists  bool
}

// LoadMCPServers reads <dir>/mcp-servers.json. A missing file is an empty
// set (Exists reports false). Errors wrap ErrBadFile and name the file
// (with line:col) or the entry; the file is never touched on error.
func LoadMCPServers(dir string) (*MCPServers, error) {
	path := filepath.Join(dir, MCPServersFileName)
	s := &MCPServers{servers: map[string]MCPServer{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	s.exists = true
	if err := json.Unmarshal(data, &s.top); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadFile, jsonFileError(path, data, err))
	}
	raw, ok := s.top.Get(keyMCPServers)
	if !ok || string(raw) == "null" {
		return s, nil
	}
	var entries Object
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("%w: %s: %s: want an object, got %s", ErrBadFile, path, keyMCPServers, jsonKind(raw))
	}
	var errs []error
	for _, name := range entries.Keys() {
		v, _ := entries.Get(name)
		var srv MCPServer
		if err := json.Unmarshal(v, &srv); err != nil {
			errs = append(errs, fmt.Errorf("%w: %s: %s %q: %w", ErrBadFile, path, keyMCPServers, name, err))
			continue
		}
		s.names = append(s.names, name)
		s.servers[name] = srv
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return s, nil
}

// Exists reports whether the file was there when loaded or has been saved.
func (s *MCPServers) Exists() bool { return s.exists }

// Names returns the server names in file order (a copy).
func (s *MCPServers) Names() []string { return append([]string(nil), s.names...) }

// Get returns the entry called name.
func (s *MCPServers) Get(name string) (MCPServer, bool) {
	srv, ok := s.servers[name]
	return srv, ok
}

// Set replaces the entry called name (keeping its other keys and place) or
// appends a new one.
func (s *MCPServers) Set(name string, srv MCPServer) {
	if s.servers == nil {
		s.servers = map[string]MCPServer{}
	}
	old, ok := s.servers[name]
	if ok && srv.raw.Len() == 0 {
		srv.raw = old.raw
	}
	if !ok {
		s.names = append(s.names, name)
	}
	s.servers[name] = srv
}

// Remove drops the entry called name and reports whether it existed.
func (s *MCPServers) Remove(name string) bool {
	if _, ok := s.servers[name]; !ok {
		return false
	}
	delete(s.servers, name)
	for i, n := range s.names {
		if n == name {
			s.names = append(s.names[:i:i], s.names[i+1:]...)
			break
		}
	}
	return true
}

// Save checks that every entry has a name, a command and valid, unique env
// names, then writes <dir>/mcp-servers.json atomically, creating dir, with
// every other key as it was.
func (s *MCPServers) Save(dir string) error {
	var errs []error
	for _, name := range s.names {
		srv := s.servers[name]
		if strings.TrimSpace(name) == "" {
			errs = append(errs, fmt.Errorf("%s: a server has no name", MCPServersFileName))
		}
		if strings.TrimSpace(srv.Command) == "" {
			errs = append(errs, fmt.Errorf("%s: server %q: %w", MCPServersFileName, name, ErrNoCommand))
		}
		if err := checkServerEnv(srv.Env); err != nil {
			errs = append(errs, fmt.Errorf("%s: server %q: %w", MCPServersFileName, name, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var entries Object
	for _, name := range s.names {
		if err := entries.SetValue(name, s.servers[name]); err != nil {
			return err
		}
	}
	top := s.top.Clone()
	if err := top.SetValue(keyMCPServers, entries); err != nil {
		return err
	}
	data, err := EncodeIndented(top)
	if err != nil {
		return fmt.Errorf("encode %s: %w", MCPServersFileName, err)
	}
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, MCPServersFileName), data, filePerm); err != nil {
		return err
	}
	s.top, s.exists = top, true
	return nil
}

// checkServerEnv applies the env name syntax and duplicate rules to a
// server's env. PULLCEPT_* names are allowed here: Pullcept does not set
// variables on the servers it runs.
func checkServerEnv(vars []EnvVar) error {
	var errs []error
	seen := map[string]bool{}
	for _, v := range vars {
		if err := CheckEnvName(v.Name); err != nil && !errors.Is(err, ErrEnvReserved) {
			errs = append(errs, fmt.Errorf("env: %w", err))
			continue
		}
		if seen[strings.ToUpper(v.Name)] {
			errs = append(errs, fmt.Errorf("env: %w: %s", ErrEnvDuplicate, v.Name))
		}
		seen[strings.ToUpper(v.Name)] = true
	}
	return errors.Join(errs...)
}
