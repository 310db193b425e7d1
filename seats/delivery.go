package seats

import (
	"strings"
	"unicode"

	"github.com/pullcept/pullcept/seats/cli"
)

// inComposer reads the seat's CLI's input box off its screen (conf, the
// kind's Confirmer) and compares it with text, a post as typed
// (docs/design.md §5 "Confirmed delivery"). The screen wraps long lines and
// the CLI indents its continuation lines, so both are compared without
// white space. A box that shows a placeholder for a long paste differs:
// unknown, never a second Enter.
func (s *Seat) inComposer(conf cli.Confirmer, text string) Composer {
	if conf == nil || s.screen == nil {
		return ComposerUnknown
	}
	rows, cx, cy := s.screen.Plain()
	box, ok := conf.Composer(rows, cx, cy)
	switch {
	case !ok:
		return ComposerUnknown
	case strings.TrimSpace(box) == "":
		return ComposerEmpty
	case squash(box) == squash(text):
		return ComposerHolds
	}
	return ComposerUnknown
}

// squash is s without white space.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// delivered logs what the typing queue learnt of a post's delivery to s;
// the seat's row and the chat show it from its TypistState.
func (m *Manager) delivered(s *Seat, d Delivery) {
	switch d.Kind {
	case DeliveryConfirmed:
		m.logger.Debug("post confirmed", "topic", s.Topic, "account", s.Account, "message", d.IDs)
	case DeliveryRetried:
		m.logger.Info("post sat in the input box: one more Enter", "topic", s.Topic, "account", s.Account, "message", d.IDs)
	case DeliveryUnconfirmed:
		m.logger.Warn("post not confirmed by the CLI", "topic", s.Topic, "account", s.Account, "message", d.IDs)
	case DeliveryFused:
		m.logger.Warn("the CLI took several posts as one message", "topic", s.Topic, "account", s.Account, "messages", d.IDs)
	}
}
