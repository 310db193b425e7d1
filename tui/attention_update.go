package tui

import (
	"slices"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// attentionLoadedMsg carries Backend.Attention's answer at start.
type attentionLoadedMsg struct {
	items []AttentionItem
	err   error
}

// ringDueMsg: the dwell timer armed for at (item id, due first then)
// fired: every item due by now rings if still unseen.
type ringDueMsg struct {
	id uint64
	at time.Time
}

// attentionSeenMsg carries SeenAttention's answer (an error is said).
type attentionSeenMsg struct{ err error }

// ringedMsg carries a desktop notification's answer: an error falls back
// to the terminal's sequence.
type ringedMsg struct {
	err  error
	ring string // the terminal's sequence to write instead
}

func (m *Model) loadAttentionCmd() tea.Cmd {
	m.attn.newer = false
	b := m.backend
	return func() tea.Msg {
		items, _, err := b.Attention()
		return attentionLoadedMsg{items: items, err: err}
	}
}

// attentionMsg handles the list's messages and the terminal's focus
// reports.
func (m *Model) attentionMsg(msg tea.Msg) ([]tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.FocusMsg:
		m.attn.blurred, m.attn.focusKnown = false, true
		return nil, true
	case tea.BlurMsg:
		m.attn.blurred, m.attn.focusKnown = true, true
		return nil, true
	case attentionLoadedMsg:
		if msg.err != nil {
			m.setStatus(stError, msg.err.Error())
			return nil, true
		}
		if !m.attn.loaded {
			// What is listed when this window starts is known: it never
			// rings (nor what a change event showed before the answer).
			m.attn.loaded = true
			m.attn.known = max(m.attn.known, maxID(msg.items), maxID(m.attn.items))
		}
		if m.attn.newer {
			// A change event came after this was asked for: it is the
			// list as new as this answer, or newer.
			return nil, true
		}
		// After Resynced, what the lost events brought waits to ring.
		return m.applyAttention(msg.items), true
	case ringDueMsg:
		return m.ringDueItems(msg.at), true
	case attentionSeenMsg:
		if msg.err != nil {
			m.setStatus(stError, msg.err.Error())
		}
		return nil, true
	case ringedMsg:
		if msg.err != nil && msg.ring != "" {
			return []tea.Cmd{tea.Raw(msg.ring)}, true
		}
		return nil, true
	}
	return nil, false
}

func maxID(items []AttentionItem) uint64 {
	var n uint64
	for _, it := range items {
		n = max(n, it.ID)
	}
	return n
}

// onAttentionChanged takes the list after a change: each new item that is
// not on the focused screen waits out the dwell, then may ring.
func (m *Model) onAttentionChanged(ev AttentionChanged) []tea.Cmd {
	m.attn.newer = true
	return m.applyAttention(ev.Items)
}

// applyAttention takes the list as it is now (a change event, or the
// list read at start or after Resynced).
func (m *Model) applyAttention(items []AttentionItem) []tea.Cmd {
	m.setAttention(items)
	if !m.attn.loaded {
		// The list read at start is on its way: what it holds is known.
		return nil
	}
	cfg := m.notifyConfig()
	now := m.env.now()
	for _, it := range items {
		if it.ID <= m.attn.known {
			continue
		}
		m.attn.known = it.ID
		if cfg.mode == NotifyOff || m.onScreen(it) {
			continue // afterUpdate tells the backend it was seen
		}
		if m.attn.due == nil {
			m.attn.due = map[uint64]time.Time{}
		}
		m.attn.due[it.ID] = now.Add(cfg.dwell)
	}
	return []tea.Cmd{m.armRing(now)}
}

// armRing arms the one dwell timer for the item due first, unless one is
// armed for then or earlier (nil).
func (m *Model) armRing(now time.Time) tea.Cmd {
	var id uint64
	var at time.Time
	for i, t := range m.attn.due {
		if id == 0 || t.Before(at) || t.Equal(at) && i < id {
			id, at = i, t
		}
	}
	if id == 0 || !m.attn.tickAt.IsZero() && !at.Before(m.attn.tickAt) {
		return nil
	}
	m.attn.tickAt = at
	return m.attn.after(max(at.Sub(now), 0), ringDueMsg{id: id, at: at})
}

// ringDueItems rings, oldest first, every item whose dwell passed by now
// (ringDue), then arms the timer for the next. at is when the timer that
// fired was armed for.
func (m *Model) ringDueItems(at time.Time) []tea.Cmd {
	if at.Equal(m.attn.tickAt) {
		m.attn.tickAt = time.Time{}
	}
	now := m.env.now()
	var ids []uint64
	for id, t := range m.attn.due {
		if !t.After(now) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var cmds []tea.Cmd
	for _, id := range ids {
		delete(m.attn.due, id)
		cmds = append(cmds, m.ringDue(id)...)
	}
	return append(cmds, m.armRing(now))
}

// setAttention keeps the list and marks its topics.
func (m *Model) setAttention(items []AttentionItem) {
	m.attn.items = items
	m.attn.sel = clampInt(m.attn.sel, 0, max(len(items)-1, 0))
	listed := func(id uint64) bool {
		return slices.ContainsFunc(items, func(it AttentionItem) bool { return it.ID == id })
	}
	for id := range m.attn.told {
		if !listed(id) {
			delete(m.attn.told, id)
		}
	}
	for id := range m.attn.due {
		if !listed(id) {
			delete(m.attn.due, id)
		}
	}
	m.topics.setNeeds(m.attn.topicsHolding())
}

// onScreen reports whether an item is on the screen of a terminal that has
// focus: the card shown (any card while the card box has the keys), a
// local MCP server's end while its account's editor is open, any other
// item while its topic is open.
func (m *Model) onScreen(it AttentionItem) bool {
	if m.attn.blurred {
		return false
	}
	switch it.Kind {
	case AttnCard:
		// The card shown; while the human answers cards (the card box has
		// the keys) the others too, counted on it. A seat holding one card
		// open no longer hides every other seat's card (breaker review).
		if m.focus == FocusCard {
			return len(m.cards.queue) > 0
		}
		c, ok := m.cards.current()
		return ok && strconv.FormatUint(c.ID, 10) == it.Ref
	case AttnMCPDied:
		// Its account's editor shows the server's state and log.
		ed := m.overlay.editor
		return m.overlay.open == ovEditor && ed != nil && ed.acc.ID == it.Account
	}
	return it.Topic != "" && it.Topic == m.topics.open
}

// attentionSeen tells the backend, once each, of the items now on the
// focused screen (afterUpdate: a focus report, a topic opened, a card
// shown, a new item where the human looks). A terminal that never
// reported focus tells it only after its human's input.
func (m *Model) attentionSeen() tea.Cmd {
	input := m.attn.input
	m.attn.input = false
	if !m.attn.focusKnown && !input {
		return nil
	}
	var ids []uint64
	for _, it := range m.attn.items {
		if m.attn.told[it.ID] || (it.Kind == AttnCard && it.Seen) || !m.onScreen(it) {
			continue
		}
		ids = append(ids, it.ID)
	}
	return m.seenCmd(ids)
}

// seenCmd reports ids seen (nil for none).
func (m *Model) seenCmd(ids []uint64) tea.Cmd {
	if len(ids) == 0 {
		return nil
	}
	if m.attn.told == nil {
		m.attn.told = map[uint64]bool{}
	}
	for _, id := range ids {
		m.attn.told[id] = true
	}
	b := m.backend
	return func() tea.Msg { return attentionSeenMsg{err: b.SeenAttention(ids)} }
}

// ringDue rings for item id if it is still listed, unseen, not on the
// focused screen, and its seat did not ring within the cooldown.
func (m *Model) ringDue(id uint64) []tea.Cmd {
	i := slices.IndexFunc(m.attn.items, func(it AttentionItem) bool { return it.ID == id })
	if i < 0 {
		return nil
	}
	it := m.attn.items[i]
	cfg := m.notifyConfig()
	if it.Seen || m.attn.told[id] || m.onScreen(it) || cfg.mode == NotifyOff {
		return nil
	}
	now := m.env.now()
	k := cooldownKey(it)
	if last, ok := m.attn.lastRing[k]; ok && now.Sub(last) < cfg.cooldown {
		return nil
	}
	if m.attn.lastRing == nil {
		m.attn.lastRing = map[string]time.Time{}
	}
	m.attn.lastRing[k] = now
	m.attn.rings++
	return []tea.Cmd{m.ringCmd(cfg, m.itemLine(it))}
}

// notifyConfig is the ring settings in force: the file's once read, else
// the defaults.
func (m *Model) notifyConfig() attnNotify {
	cfg := attnNotify{dwell: defaultDwell, cooldown: defaultCooldown}
	if !m.settings.loaded {
		return cfg
	}
	v := m.settings.info.SettingValues
	cfg.mode, cfg.sequence = v.Notify, v.NotifySequence
	cfg.dwell = time.Duration(v.NotifyDwell) * time.Second
	cfg.cooldown = time.Duration(v.NotifyCooldown) * time.Second
	return cfg
}

// attentionKey handles the jump key and the list key, from any focus but
// an overlay's; ok is false for any other key.
func (m *Model) attentionKey(k tea.KeyPressMsg) ([]tea.Cmd, bool) {
	switch {
	case key.Matches(k, m.keys.NeedsYou):
		return m.jumpNext(), true
	case key.Matches(k, m.keys.NeedsYouList):
		m.overlay.open = ovAttention
		m.attn.sel = 0
		return nil, true
	}
	return nil, false
}

// attentionListKey handles a key while the list overlay is open.
func (m *Model) attentionListKey(k tea.KeyPressMsg) []tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.Cancel), key.Matches(k, km.NeedsYouList):
		m.closeOverlay()
	case key.Matches(k, km.Up):
		m.attn.sel = max(m.attn.sel-1, 0)
	case key.Matches(k, km.Down):
		m.attn.sel = min(m.attn.sel+1, max(len(m.attn.items)-1, 0))
	case key.Matches(k, km.Select), key.Matches(k, km.NeedsYou):
		if m.attn.sel >= len(m.attn.items) {
			return nil
		}
		it := m.attn.items[m.attn.sel]
		m.closeOverlay()
		return m.jumpToItem(it)
	}
	return nil
}

// jumpNext goes to the item after the one the key went to last, oldest
// first and round again; with none it says so.
func (m *Model) jumpNext() []tea.Cmd {
	items := m.attn.items
	if len(items) == 0 {
		m.setStatus(stInfo, m.env.tr.t(mAttnEmpty))
		return nil
	}
	i := slices.IndexFunc(items, func(it AttentionItem) bool { return it.ID > m.attn.cursor })
	if i < 0 {
		i = 0
	}
	return m.jumpToItem(items[i])
}

// jumpToItem takes the human to an item's place — a card, a post, a seat's
// pane, a topic, an mcp account's editor — and records it seen.
func (m *Model) jumpToItem(it AttentionItem) []tea.Cmd {
	m.attn.cursor = it.ID
	cmds := []tea.Cmd{m.seenCmd([]uint64{it.ID})}
	if m.focus == FocusPane {
		cmds = append(cmds, m.setFocus(FocusInput))
	}
	switch it.Kind {
	case AttnCard:
		return append(cmds, m.jumpToCard(it)...)
	case AttnAddressed:
		cmds = append(cmds, m.setFocus(FocusChat))
		return append(cmds, m.jumpTo(PostHit{Topic: it.Topic, MessageID: it.Ref})...)
	case AttnCardTimedOut, AttnExited, AttnLimited, AttnResumed:
		return append(cmds, m.cardPane(PermissionCard{Topic: it.Topic, Account: it.Account})...)
	case AttnMCPDied:
		if a, ok := m.accounts.find(it.Account); ok {
			return append(cmds, m.openEditor(a, false)...)
		}
		return cmds
	}
	if it.Topic != m.topics.open {
		cmds = append(cmds, m.switchTopic(it.Topic)...)
	}
	return append(cmds, m.setFocus(FocusChat))
}

// jumpToCard shows the item's card and gives it the keys, in its topic.
func (m *Model) jumpToCard(it AttentionItem) []tea.Cmd {
	var cmds []tea.Cmd
	if it.Topic != m.topics.open {
		cmds = m.switchTopic(it.Topic)
	}
	for i, c := range m.cards.queue {
		if strconv.FormatUint(c.ID, 10) == it.Ref {
			m.cards.shown = i
		}
	}
	return append(cmds, m.focusCard()...)
}
