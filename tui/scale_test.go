package tui

import (
	"fmt"
	"runtime"
	"testing"
	"time"
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
