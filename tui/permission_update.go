package tui

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// How the root model drives the permission cards (permission.go): the
// events that open and close them, the keys that answer them, and the
// Backend calls (Permissions) in commands.

// cardsLoadedMsg is PermissionCards' answer: the cards waiting now.
type cardsLoadedMsg struct{ cards []PermissionCard }

// cardAnsweredMsg is AnswerPermission's answer for card id (the reason
// typed is not carried: it went with the call and is gone).
type cardAnsweredMsg struct {
	id            uint64
	allow, always bool
	err           error
}

// permissionMsg applies the Permissions part's answers.
func (m *Model) permissionMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case cardsLoadedMsg:
		return m.onCardsLoaded(msg.cards), true
	case cardAnsweredMsg:
		return m.onCardAnswered(msg), true
	}
	return nil, false
}

// loadCardsCmd reads the cards waiting (at start and after Resynced).
func (m *Model) loadCardsCmd() tea.Cmd {
	b := m.backend
	return func() tea.Msg { return cardsLoadedMsg{cards: b.PermissionCards()} }
}

// onCardsLoaded replaces the queue with what the backend holds, keeping
// the card shown when it still waits. One the focused keys were on that is
// gone went while events were lost (Resynced): the keys go as they do when
// its close arrives (holdIfShown), its reason with it — never on to the
// card now shown, which the human did not see (breaker review: the reason
// typed for one card denied the next).
func (m *Model) onCardsLoaded(cards []PermissionCard) []tea.Cmd {
	c := &m.cards
	shown, ok := c.current()
	gone := ok && !slices.ContainsFunc(cards, func(q PermissionCard) bool { return q.ID == shown.ID })
	if gone {
		m.holdIfShown(shown.ID, c.sending == shown.ID)
		c.dropReason()
		c.err = ""
		if c.read.id == shown.ID {
			c.read = cardReading{}
		}
	}
	c.queue = nil
	for _, card := range cards {
		c.add(card)
	}
	c.shown = 0
	for i, q := range c.queue {
		if q.ID == shown.ID {
			c.shown = i
		}
	}
	c.version++
	m.accounts.panel.changed()
	if gone {
		return m.cardGone()
	}
	return nil
}

// onPermissionAsked queues a new card and says so on the status line.
func (m *Model) onPermissionAsked(ev PermissionAsked) {
	m.cards.add(ev.Card)
	m.accounts.panel.changed()
	name := m.accounts.name(ev.Card.Account)
	m.seatStatus(cardSeat(ev.Card.Topic, ev.Card.Account), stInfo,
		m.env.tr.t(mStCardAsked, name, oneLine(cardText(ev.Card.Tool)), hintKey(firstKey(m.keys.Permission))))
}

// onPermissionClosed drops a card that closed (answered here, in another
// UI or in the pane, or no longer waited for) and says why; focus leaves
// the card when none is left.
func (m *Model) onPermissionClosed(ev PermissionClosed) []tea.Cmd {
	// Answered, and the answer this UI sent is on its way: the card went
	// because of it (the event may come before AnswerPermission returns).
	// However the close is told (the CLI may report the dialog answered
	// in its pane as it takes ours), an answer this UI has on its way
	// means the human answered it here.
	m.holdIfShown(ev.ID, m.cards.sending == ev.ID)
	card, ok := m.cards.remove(ev.ID)
	if !ok {
		return nil
	}
	m.accounts.panel.changed()
	tr := m.env.tr
	name, tool := m.accounts.name(card.Account), oneLine(cardText(card.Tool))
	seat := cardSeat(card.Topic, card.Account)
	switch ev.End {
	case PermissionTimedOut:
		m.seatStatus(seat, stWarn, tr.t(mStCardTimedOut, name, tool))
	case PermissionElsewhere:
		m.seatStatus(seat, stInfo, tr.t(mStCardElsewhere, name, tool))
	case PermissionAnswered:
		m.seatStatus(seat, stInfo, answeredText(&m.env, name, tool, ev.Allowed, false)+m.cardsWaiting())
	}
	return m.cardGone()
}

// cardsWaiting is the status line's tail after an answer while other
// cards wait: the key that shows the next one.
func (m *Model) cardsWaiting() string {
	if len(m.cards.queue) == 0 {
		return ""
	}
	return m.env.tr.t(mStCardsWaiting, hintKey(firstKey(m.keys.Permission)), len(m.cards.queue))
}

// cardGone gives focus back when the card the keys were on went (the
// last one, or one answered here: leaving), unless keys are held
// (holdIfShown): then the human's next key decides.
func (m *Model) cardGone() []tea.Cmd {
	if m.focus == FocusCard && !m.cards.hold && (len(m.cards.queue) == 0 || m.cards.leaving) {
		m.cards.leaving = false
		return []tea.Cmd{m.leaveCard()}
	}
	return nil
}

// holdIfShown decides where the keys go when card id, about to go, is the
// one the focused card area shows (issue 35: after an answer the keys were
// swallowed until Esc). Answered here: back where they were before the
// card took them, at once; a repeat of the answering key within
// repeatWindow is dropped there (dropRepeat), a double press, not text.
// Gone by itself: to the input bar (never a pane: a y meant for the card
// must not reach the CLI's own dialog), unless a reason was being typed
// — then the keys are held (permCards.hold) so its rest is never posted.
func (m *Model) holdIfShown(id uint64, answered bool) {
	cur, ok := m.cards.current()
	if !ok || cur.ID != id || m.focus != FocusCard {
		return
	}
	c := &m.cards
	switch {
	case answered:
		c.leaving, c.answeredAt = true, m.env.now()
		return
	case !c.typing:
		c.leaving, c.back = true, focusTarget{focus: FocusInput}
		return
	}
	c.hold = true
	c.version++
}

// dropRepeat reports whether k, anywhere, is a repeat of the key that just
// answered a card (within repeatWindow): dropped, not typed.
func (m *Model) dropRepeat(k tea.KeyPressMsg) bool {
	c := &m.cards
	if c.answeredAt.IsZero() || m.focus == FocusCard {
		return false
	}
	repeat := k.String() == c.lastKey && m.env.now().Sub(c.answeredAt) <= repeatWindow
	if !repeat {
		c.answeredAt = time.Time{}
	}
	return repeat
}

// repeatWindow is how soon after an answer its key pressed again counts
// as a double press (dropped) rather than the start of typed text.
const repeatWindow = 600 * time.Millisecond

// cardDwell is how long a card shows before it takes an answer key: a key
// pressed sooner was meant for what was there before (a Tab for the input
// bar, a click on the chat the card pushed down, a y for a card that went
// and left this one shown). As browsers delay a dialog's buttons.
const cardDwell = repeatWindow

// justShown reports whether card began to show less than the dwell ago
// (or was not drawn): an answer key is not taken yet.
func (m *Model) justShown(card PermissionCard) bool {
	c := &m.cards
	return c.dwell > 0 && (c.shownID != card.ID || m.env.now().Sub(c.shownAt) < c.dwell)
}

// heldKey handles a key while keys are held: F7 shows the next card (or
// leaves when none waits), Esc goes back to the input bar (never to a
// pane: the keys after it would reach a CLI); everything else waits (it
// may be the rest of a reason meant for the card that went).
func (m *Model) heldKey(k tea.KeyPressMsg) []tea.Cmd {
	c := &m.cards
	switch {
	case key.Matches(k, m.keys.Permission) && len(c.queue) > 0:
		c.hold = false
		c.version++
	case key.Matches(k, m.keys.Permission), key.Matches(k, m.keys.Cancel):
		c.hold = false
		c.version++
		c.back = focusTarget{focus: FocusInput}
		return []tea.Cmd{m.leaveCard()}
	}
	return nil
}

func answeredText(e *env, name, tool string, allow, always bool) string {
	switch {
	case allow && always:
		return e.tr.t(mStCardAllowedAlways, tool, name)
	case allow:
		return e.tr.t(mStCardAllowed, tool, name)
	}
	return e.tr.t(mStCardDenied, tool, name)
}

// onCardAnswered applies the answer's outcome: the card goes, or stays
// with the refusal on it (it had closed meanwhile: its PermissionClosed
// takes it away).
func (m *Model) onCardAnswered(msg cardAnsweredMsg) []tea.Cmd {
	c := &m.cards
	if c.sending == msg.id {
		c.sending = 0
		c.version++
	}
	if msg.err != nil {
		c.err = m.env.tr.t(mStCardFailed, msg.err.Error())
		c.version++
		m.setStatus(stError, c.err)
		return nil
	}
	m.holdIfShown(msg.id, true)
	card, ok := c.remove(msg.id)
	if ok {
		m.accounts.panel.changed()
		m.setStatus(stInfo, answeredText(&m.env, m.accounts.name(card.Account), oneLine(cardText(card.Tool)), msg.allow, msg.always)+m.cardsWaiting())
	}
	return m.cardGone()
}

// focusCard gives the card shown the keys, remembering where they were.
func (m *Model) focusCard() []tea.Cmd {
	if len(m.cards.queue) == 0 {
		m.setStatus(stInfo, m.env.tr.t(mStNoCard)) // the key did something: it said so
		return nil
	}
	if m.focus == FocusCard {
		return nil
	}
	m.cards.back = focusTarget{focus: m.focus, pane: m.focusPane}
	m.cards.hold = false
	return []tea.Cmd{m.setFocus(FocusCard)}
}

// leaveCard gives the keys back to where they were before the card took
// them (the input bar when that is gone); a reason being typed is dropped.
func (m *Model) leaveCard() tea.Cmd {
	m.cards.dropReason()
	m.cards.hold = false
	back := m.cards.back
	m.cards.back = focusTarget{}
	if back.focus == FocusCard || (back.focus == FocusPane && m.seats.panes[back.pane] == nil) {
		back = focusTarget{focus: FocusInput}
	}
	m.focusPane = back.pane
	return m.setFocus(back.focus)
}

// cardKey handles a key while the card has focus: the reason's line takes
// it while open; else the card's keys, and the global ones.
func (m *Model) cardKey(k tea.KeyPressMsg) []tea.Cmd {
	c := &m.cards
	if c.hold {
		return m.heldKey(k)
	}
	c.lastKey = k.String()
	card, ok := c.current()
	if !ok {
		return []tea.Cmd{m.leaveCard()}
	}
	km := &m.keys
	if c.typing {
		switch {
		case key.Matches(k, km.PermissionSend):
			return m.answerCard(card, PermissionAnswer{Reason: c.reason.Value()})
		case key.Matches(k, km.Cancel):
			c.dropReason()
			return nil
		}
		var cmd tea.Cmd
		c.reason, cmd = c.reason.Update(k)
		c.version++
		return []tea.Cmd{cmd}
	}
	if c.reading(card) && m.readingKey(k) {
		return nil
	}
	switch {
	case key.Matches(k, km.Cancel):
		return []tea.Cmd{m.leaveCard()}
	case key.Matches(k, km.PermissionPane):
		return m.cardPane(card)
	case key.Matches(k, km.PermissionPrev):
		c.step(-1)
	case key.Matches(k, km.PermissionNext):
		c.step(1)
	case c.sending != 0 && m.cardAnswerKey(k):
		// One answer at a time: wait for the first.
		m.setStatus(stWarn, m.env.tr.t(mStCardOnItsWay))
	case m.cardAnswerKey(k) && m.justShown(card):
		c.err = m.env.tr.t(mCardJustShown)
		c.version++
	case key.Matches(k, km.PermissionAllow) && c.mayAllow(card):
		return m.answerCard(card, PermissionAnswer{Allow: true})
	case key.Matches(k, km.PermissionAllow):
		m.readFirst(card, false)
	case key.Matches(k, km.PermissionAlways) && c.mayAlways(card):
		return m.answerCard(card, PermissionAnswer{Allow: true, Always: true})
	case key.Matches(k, km.PermissionAlways) && len(card.Suggestions) > 0:
		m.readFirst(card, true)
	case key.Matches(k, km.PermissionAlways):
		m.setStatus(stWarn, m.env.tr.t(mStCardNoAlways, m.accounts.name(card.Account), hintKey(firstKey(km.PermissionAllow))))
	case key.Matches(k, km.PermissionDeny):
		return m.answerCard(card, PermissionAnswer{})
	case key.Matches(k, km.PermissionReason):
		c.openReason(&m.env)
	default:
		if cmds, ok := m.globalKey(k); ok {
			return cmds
		}
	}
	return nil
}

// readFirst is y (a: always) on a card that may not be allowed yet:
// nothing is allowed unseen. A card that did not show all it carries
// shows its whole text to read (docs/design.md §10 "Permission cards");
// while it is read, the key says how to read on; a card that holds only
// part of the request, or suggestions too long for it, is answered in
// the pane. Each refusal says why on the card and on the status line
// (issue 35: y opened the text and said nothing).
func (m *Model) readFirst(card PermissionCard, always bool) {
	m.readFirstCard(card, always)
	why := m.cards.err
	if why == "" {
		why = m.env.tr.t(mStCardUnread, m.accounts.name(card.Account), hintKey(firstKey(m.keys.PermissionAllow)))
	}
	m.setStatus(stWarn, why)
}

// readFirstCard is readFirst's work on the card: its text opened, or the
// refusal it shows.
func (m *Model) readFirstCard(card PermissionCard, always bool) {
	c, tr, km := &m.cards, m.env.tr, &m.keys
	pane := hintKey(firstKey(km.PermissionPane))
	switch {
	case always && card.SuggestionsCut:
		c.err = tr.t(mCardAlwaysHidden, pane)
	case !c.reading(card):
		c.startReading(card)
		c.err = ""
		if always && !c.allShown {
			c.err = tr.t(mCardAlwaysHidden, pane)
		}
	case c.readAll(card):
		c.err = tr.t(mCardCutPane, pane) // read all, yet cut: SummaryCut
	default:
		c.err = tr.t(mCardReadFirst, hintKey(firstKey(km.ScrollDown)))
	}
	c.version++
}

// readingKey scrolls the text read (↑↓ a row, PgUp PgDn a page, Home the
// top, End the end: shown, but not read) or leaves it (Esc); false for
// every other key.
func (m *Model) readingKey(k tea.KeyPressMsg) bool {
	c, km := &m.cards, &m.keys
	page := max(c.read.page, 1)
	switch {
	case key.Matches(k, km.Cancel):
		c.read, c.err = cardReading{}, ""
		c.version++
	case key.Matches(k, km.Up):
		c.scrollReading(-1)
	case key.Matches(k, km.Down):
		c.scrollReading(1)
	case key.Matches(k, km.ScrollUp):
		c.scrollReading(-page)
	case key.Matches(k, km.ScrollDown):
		c.scrollReading(page)
	case key.Matches(k, km.Top):
		c.scrollReading(-c.read.off)
	case key.Matches(k, km.Bottom):
		c.scrollReading(c.read.total)
	default:
		return false
	}
	return true
}

// cardAnswerKey reports whether k answers a card.
func (m *Model) cardAnswerKey(k tea.KeyPressMsg) bool {
	km := &m.keys
	return key.Matches(k, km.PermissionAllow) || key.Matches(k, km.PermissionAlways) ||
		key.Matches(k, km.PermissionDeny) || key.Matches(k, km.PermissionReason)
}

// answerCard sends the answer in a command; the reason goes with it and is
// dropped here.
func (m *Model) answerCard(card PermissionCard, a PermissionAnswer) []tea.Cmd {
	c := &m.cards
	c.dropReason()
	c.err = ""
	c.sending = card.ID
	c.version++
	b, id := m.backend, card.ID
	allow, always := a.Allow, a.Always
	return []tea.Cmd{func() tea.Msg {
		return cardAnsweredMsg{id: id, allow: allow, always: always, err: b.AnswerPermission(id, a)}
	}}
}

// cardPane goes to the pane of the card's seat: in its topic (opened
// first when another is open), with the pane area shown. The pane of a
// topic being opened gets focus once its seats are read (cardPaneArrived).
func (m *Model) cardPane(card PermissionCard) []tea.Cmd {
	k := seatKey{card.Topic, card.Account}
	m.cards.dropReason()
	if card.Topic == m.topics.open {
		if _, ok := m.seats.panes[k]; !ok {
			m.setStatus(stWarn, m.env.tr.t(mStCardNoPane, m.accounts.name(card.Account)))
			return nil
		}
		m.cards.back = focusTarget{}
		return m.focusSeatPane(k)
	}
	m.cards.back, m.cards.paneWanted = focusTarget{}, k
	cmds := m.switchTopic(card.Topic)
	if m.focus == FocusCard {
		cmds = append(cmds, m.setFocus(FocusInput))
	}
	return cmds
}

// cardPaneArrived focuses the pane a card asked for once its topic's seats
// were read.
func (m *Model) cardPaneArrived() []tea.Cmd {
	k := m.cards.paneWanted
	if k.topic == "" || k.topic != m.topics.open {
		return nil
	}
	m.cards.paneWanted = seatKey{}
	if _, ok := m.seats.panes[k]; !ok {
		m.setStatus(stWarn, m.env.tr.t(mStCardNoPane, m.accounts.name(k.account)))
		return nil
	}
	return m.focusSeatPane(k)
}

// cardPaste takes a paste while the card has focus: into the reason's
// line (one line: breaks become spaces), else nowhere.
func (m *Model) cardPaste(msg tea.PasteMsg) []tea.Cmd {
	c := &m.cards
	if !c.typing {
		return nil
	}
	var cmd tea.Cmd
	c.reason, cmd = c.reason.Update(tea.PasteMsg{Content: oneLine(msg.Content)})
	c.version++
	return []tea.Cmd{cmd}
}

// renderCard draws the card into its rectangle (layout.Card).
func (m *Model) renderCard() {
	r := m.layout.Card
	if r.empty() {
		m.cards.view = nil
		m.cards.whole = 0 // not drawn: nothing of it shows
		m.cards.shownID = 0
		return
	}
	if card, ok := m.cards.current(); ok && card.ID != m.cards.shownID {
		m.cards.shownID, m.cards.shownAt = card.ID, m.env.now()
	}
	m.cards.render(&m.env, r.W, r.H, m.focus == FocusCard, m.cardInfo())
}

// cardInfo is what the card shown needs from the rest of the screen.
func (m *Model) cardInfo() cardInfo {
	card, _ := m.cards.current()
	info := cardInfo{name: card.Account, hue: nameHue(card.Account)}
	if a, ok := m.accounts.find(card.Account); ok {
		info.name, info.hue = displayAccountName(a), accountHue(a, m.opts.AdminID)
	}
	if card.Topic != m.topics.open {
		info.topic = m.topics.nameOf(&m.env, card.Topic)
	}
	return info
}
