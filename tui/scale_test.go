package tui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// scaleTopics is the topic count of the scale benchmarks (issue 14: 200 000
// topics in index.json made every keystroke take 21 s).
const scaleTopics = 200_000

// bigTopicList is n topics, as Topics returns them (any order).
func bigTopicList(n int) map[string]TopicInfo {
	out := make(map[string]TopicInfo, n)
	base := time.Date(2026, 10, 2, 9, 0, 0, 0, testLoc)
	for i := range n {
		id := fmt.Sprintf("t%07d", i)
		out[id] = TopicInfo{ID: id, Name: fmt.Sprintf("topic %d 話題", i), LastActivity: base.Add(-time.Duration(i) * time.Minute), Indexed: true}
	}
	return out
}

// scaleModel is a model whose topic list holds 200 000 topics, focused.
func scaleModel(b testing.TB) *Model { return listModel(b, scaleTopics) }

// listModel is a model whose topic list holds n topics, focused.
func listModel(b testing.TB, n int) *Model {
	f := newFake()
	f.topics = bigTopicList(n)
	m := newTestModel(b, f, testOptions(), 160, 50)
	if len(m.topics.items) != n {
		b.Fatalf("setup: %d topics listed", len(m.topics.items))
	}
	send(b, m, press("tab"))
	send(b, m, press("tab"))
	if m.focus != FocusTopics {
		b.Fatalf("setup: focus %v", m.focus)
	}
	return m
}

// BenchmarkTopicListKey200k is one ↓ in the focused topic list of 200 000
// topics, Update and View: it must cost what a short list costs.
func BenchmarkTopicListKey200k(b *testing.B) {
	m := scaleModel(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := press("down")
		if i%400 >= 200 {
			k = press("up")
		}
		m.Update(k)
		_ = m.View()
	}
}

// BenchmarkTopicsLoaded200k is the list taking a fresh answer of 200 000
// topics (start-up, and each reload after a first post or a rename).
func BenchmarkTopicsLoaded200k(b *testing.B) {
	m := scaleModel(b)
	ts, _ := m.backend.Topics()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(topicsLoadedMsg{topics: ts})
	}
}

// keyBytes is what n ↓/↑ keys in m's topic list allocate, Update and View.
func keyBytes(m *Model, n int) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range n {
		k := press("down")
		if i%2 == 1 {
			k = press("up")
		}
		m.Update(k)
		_ = m.View()
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestTopicListKeyIsOVisible: a key in a list of 200 000 topics costs what
// it costs in a list of 1 000 (it copied every topic id per key: 3.2 MB and
// 6 ms a key, issue 14).
func TestTopicListKeyIsOVisible(t *testing.T) {
	small, big := listModel(t, 1000), listModel(t, scaleTopics)
	keyBytes(small, 10)
	keyBytes(big, 10)
	s, b := keyBytes(small, 40), keyBytes(big, 40)
	if b > 2*s+64<<10 {
		t.Fatalf("40 keys allocate %d bytes with 200 000 topics, %d with 1 000", b, s)
	}
	// A post to a topic far down moves it to the top without a re-sort.
	last := big.topics.items[scaleTopics-1].ID
	send(t, big, eventsMsg{evs: []Event{PostDelivered{Topic: last, Post: post("p1", "Lin", "hi", 60*24)}}})
	if got := big.topics.items[0].ID; got != last || big.topics.find(last) != 0 || big.topics.find(big.topics.items[1].ID) != 1 {
		t.Fatalf("after a post the first row is %s (want %s)", got, last)
	}
}

// BenchmarkFinderType200k types "topic 1234" into the finder over 200 000
// topics, a key at a time, Update and View each (issue 14: 23 s to show).
func BenchmarkFinderType200k(b *testing.B) {
	m := scaleModel(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(press("ctrl+p"))
		for _, r := range "topic 1234" {
			m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			_ = m.View()
		}
		m.Update(press("esc"))
	}
}

// The finder lists at most titleLimit titles and says there are more; a
// query typed on narrows what the last one kept, to the same answer a
// fresh query gives.
func TestFinderTitlesAreBounded(t *testing.T) {
	t.Parallel()
	m := listModel(t, 5000)
	send(t, m, press("ctrl+p"))
	p := m.overlay.picker
	for _, q := range []string{"topic 1", "topic 12", "topic 123", "Topic 1"} {
		p.in.SetValue(q)
		_ = m.pickerChanged()
		fresh := newTopicPicker(&env{}, p.items, p.name)
		fresh.filter(&m.env, q)
		if len(p.titles) != len(fresh.titles) || p.more != fresh.more {
			t.Fatalf("%q typed on: %d titles (more %v), fresh: %d (more %v)", q, len(p.titles), p.more, len(fresh.titles), fresh.more)
		}
		if len(p.titles) > titleLimit {
			t.Fatalf("%q: %d titles listed", q, len(p.titles))
		}
	}
	p.in.SetValue("topic 1")
	_ = m.pickerChanged()
	send(t, m, searchDoneMsg{seq: p.search.seq}) // no post holds it
	if !p.more || !strings.Contains(plain(m), "The first 200 topics: type more to narrow") {
		t.Fatalf("no bound said:\n%s", plain(m))
	}
}
