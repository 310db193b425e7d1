// Package tui is the terminal UI (DESIGN §10): one Bubble Tea root model with
// the topic list, chat, participant panel, input bar and seat panes. It is the
// only package that imports Bubble Tea, Lip Gloss and Bubbles.
package tui
