package sidecar

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Environment variables the sidecar reads (DESIGN §7). The first six are
// written into the seat's .mcp.json entry; EnvRoomToken and EnvLaunchedAs come
// from the process environment of the launched CLI, so the token never lands
// in a file, argv, preview or log.
const (
	// EnvRoomURL is the room's loopback WebSocket URL (ws://127.0.0.1:<port>/…).
	EnvRoomURL = "PULLCEPT_ROOM_URL"
	// EnvAgentName is the seat's name in the room (hello name; instructions).
	EnvAgentName = "PULLCEPT_AGENT_NAME"
	// EnvAccountID is the account the .mcp.json entry was written for.
	EnvAccountID = "PULLCEPT_ACCOUNT_ID"
	// EnvRoomID is the topic id the seat joins (hello room).
	EnvRoomID = "PULLCEPT_ROOM_ID"
	// EnvHue is the declared hue in degrees, 0–359; unset or invalid = none.
	EnvHue = "PULLCEPT_HUE"
	// EnvUnseenHistory, when non-empty and not "0", says the topic already has
	// posts this seat has not seen (spec «トピック», #133).
	EnvUnseenHistory = "PULLCEPT_UNSEEN_HISTORY"
	// EnvRoomToken is the room's bearer token (process environment only).
	EnvRoomToken = "PULLCEPT_ROOM_TOKEN"
	// EnvLaunchedAs is the account the CLI was launched as (process
	// environment only); it must equal EnvAccountID for the sidecar to join.
	EnvLaunchedAs = "PULLCEPT_LAUNCHED_AS"
)

// config is the sidecar's view of its environment, validated.
type config struct {
	roomURL   string
	token     string
	name      string
	accountID string
	roomID    string
	// hue is nil when EnvHue is unset or invalid (hello omits the key).
	hue           *int
	unseenHistory bool
}

// loadConfig reads and checks the environment. notes are warnings worth a
// stderr line (an invalid hue); they never stop the sidecar. The error wraps
// ErrNotJoining with the reason when the sidecar must not join: admission
// (launched-as ≠ account id, or either missing) is checked first, then the
// entry's completeness and that the room URL is loopback.
func loadConfig(env func(string) string) (cfg config, notes []string, err error) {
	get := func(k string) string { return strings.TrimSpace(env(k)) }
	launchedAs, accountID := get(EnvLaunchedAs), get(EnvAccountID)
	switch {
	case launchedAs == "" && accountID == "":
		return config{}, nil, fmt.Errorf("%w: %s and %s are not set", ErrNotJoining, EnvLaunchedAs, EnvAccountID)
	case launchedAs == "":
		return config{}, nil, fmt.Errorf("%w: %s is not set (this CLI was not launched by Pullcept for account %q)", ErrNotJoining, EnvLaunchedAs, accountID)
	case accountID == "":
		return config{}, nil, fmt.Errorf("%w: %s is not set in the room entry", ErrNotJoining, EnvAccountID)
	case launchedAs != accountID:
		return config{}, nil, fmt.Errorf("%w: this CLI was launched as account %q but the room entry is for account %q", ErrNotJoining, launchedAs, accountID)
	}
	cfg = config{
		roomURL:   get(EnvRoomURL),
		token:     get(EnvRoomToken),
		name:      get(EnvAgentName),
		accountID: accountID,
		roomID:    get(EnvRoomID),
	}
	for _, req := range []struct{ key, val string }{
		{EnvRoomURL, cfg.roomURL}, {EnvRoomToken, cfg.token}, {EnvAgentName, cfg.name}, {EnvRoomID, cfg.roomID},
	} {
		if req.val == "" {
			return config{}, nil, fmt.Errorf("%w: %s is not set", ErrNotJoining, req.key)
		}
	}
	if err := checkLoopbackURL(cfg.roomURL); err != nil {
		return config{}, nil, fmt.Errorf("%w: %s: %w", ErrNotJoining, EnvRoomURL, err)
	}
	if h := get(EnvHue); h != "" {
		n, convErr := strconv.Atoi(h)
		if convErr != nil || n < 0 || n > 359 {
			notes = append(notes, fmt.Sprintf("%s=%q is not a hue in degrees 0-359; joining without a hue", EnvHue, h))
		} else {
			cfg.hue = &n
		}
	}
	u := get(EnvUnseenHistory)
	cfg.unseenHistory = u != "" && u != "0"
	return cfg, notes, nil
}

// checkLoopbackURL accepts only ws:// URLs whose host is a loopback address
// or "localhost": nothing the sidecar does may leave the machine (DESIGN §6).
func checkLoopbackURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a URL: %w", err)
	}
	if u.Scheme != "ws" {
		return fmt.Errorf("scheme %q is not ws", u.Scheme)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("host %q is not a loopback address", host)
}
