package sidecar

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pullcept/pullcept/room"
)

// config is the sidecar's view of its environment, validated.
type config struct {
	roomURL   string
	socket    string // the room socket (room.EnvRoomSocket), "" = dial roomURL
	token     string
	name      string
	accountID string
	roomID    string
	// hue is nil when room.EnvHue is unset or invalid (hello omits the key).
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
	launchedAs, accountID := get(room.EnvLaunchedAs), get(room.EnvAccountID)
	switch {
	case launchedAs == "" && accountID == "":
		return config{}, nil, fmt.Errorf("%w: %s and %s are not set", ErrNotJoining, room.EnvLaunchedAs, room.EnvAccountID)
	case launchedAs == "":
		return config{}, nil, fmt.Errorf("%w: %s is not set (this CLI was not launched by Pullcept for account %q)", ErrNotJoining, room.EnvLaunchedAs, accountID)
	case accountID == "":
		return config{}, nil, fmt.Errorf("%w: %s is not set in the room entry", ErrNotJoining, room.EnvAccountID)
	case launchedAs != accountID:
		return config{}, nil, fmt.Errorf("%w: this CLI was launched as account %q but the room entry is for account %q", ErrNotJoining, launchedAs, accountID)
	}
	cfg = config{
		roomURL:   get(room.EnvRoomURL),
		socket:    get(room.EnvRoomSocket),
		token:     get(room.EnvRoomToken),
		name:      get(room.EnvAgentName),
		accountID: accountID,
		roomID:    get(room.EnvRoomID),
	}
	for _, req := range []struct{ key, val string }{
		{room.EnvRoomURL, cfg.roomURL}, {room.EnvRoomToken, cfg.token}, {room.EnvAgentName, cfg.name}, {room.EnvRoomID, cfg.roomID},
	} {
		if req.val == "" {
			return config{}, nil, fmt.Errorf("%w: %s is not set", ErrNotJoining, req.key)
		}
	}
	if err := room.CheckLoopbackURL(cfg.roomURL, "ws"); err != nil {
		return config{}, nil, fmt.Errorf("%w: %s: %w", ErrNotJoining, room.EnvRoomURL, err)
	}
	if h := get(room.EnvHue); h != "" {
		n, convErr := strconv.Atoi(h)
		if convErr != nil || n < 0 || n > 359 {
			notes = append(notes, fmt.Sprintf("%s=%q is not a hue in degrees 0-359; joining without a hue", room.EnvHue, h))
		} else {
			cfg.hue = &n
		}
	}
	u := get(room.EnvUnseenHistory)
	cfg.unseenHistory = u != "" && u != "0"
	return cfg, notes, nil
}
