package config

import (
	"encoding/json"
	"fmt"
	"strings"
)

// keyBrake is the top-level config.json key of the brake on AI-to-AI loops.
const keyBrake = "brake"

// DefaultBrake is the brake when config.json does not set one: after 12 AI
// posts in a row with no post from the human, a room stops typing AI posts
// into its seats (docs/design.md §2 "The brake"). Twelve lets a few seats
// discuss a question over several rounds, and stops two seats that answer
// each other within a minute or so.
const DefaultBrake = 12

// MaxBrake is the largest brake accepted: a run of more AI posts than this
// with no human post is no brake at all, so a bigger number is a typo.
const MaxBrake = 1000

// Brake returns config.json's "brake": how many AI posts in a row, with no
// post from the human, make a room stop typing AI posts into its seats
// (docs/design.md §2 "The brake"). Absent or null: DefaultBrake; 0 turns the
// brake off. Anything but a whole number from 0 to MaxBrake is an error
// that names the key and wraps ErrBadFile. Read with encoding/json like the
// UI's keys (viper never reads config.json).
func (c *Config) Brake() (int, error) {
	raw, ok := c.top.Get(keyBrake)
	if !ok || strings.TrimSpace(string(raw)) == "null" {
		return DefaultBrake, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil || n < 0 || n > MaxBrake {
		got := jsonKind(raw)
		if s := strings.TrimSpace(string(raw)); got == "a number" && len(s) <= 24 {
			got = s
		}
		return 0, fmt.Errorf("%s: %q must be a whole number of AI posts from 1 to %d, or 0 to turn the brake off; got %s: %w",
			FileName, keyBrake, MaxBrake, got, ErrBadFile)
	}
	return n, nil
}
