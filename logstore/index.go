package logstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"
)

// indexName is the index file inside <data>/logs/main/ (docs/design.md §8).
const indexName = "index.json"

// TimeLayout is how times are written to the log and the index (a post's
// ts, a topic's created_at): UTC, RFC 3339 with milliseconds
// ("2026-10-01T16:14:05.123Z"). Any RFC 3339 time is read. The room's wire
// ts is the same layout (room.TimeLayout).
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// entry is one topic of index.json: {"id", "name", "created_at", "sessions",
// "seen"} plus any keys somebody else wrote, which are kept on rewrite. An
// entry that does not decode is kept verbatim in raw and otherwise ignored.
type entry struct {
	ID        string
	Name      string
	CreatedAt string            // as written; parsed on read, kept verbatim
	Sessions  map[string]string // account id → session id
	// Seen maps account id → the log's size in bytes when that account's
	// seat last stopped in this topic (Store.RecordSeen).
	Seen  map[string]int64
	extra map[string]json.RawMessage
	raw   json.RawMessage
	rawID string // best-effort id of a raw entry, so Delete drops it too
}

// indexDoc is the whole of index.json: {"topics": [...]} plus unknown
// top-level keys. entries keeps the file's order; new topics are appended
// (add). byID finds a decoded entry in O(1): with 200 000 topics a scan per
// entry made opening the index take minutes (issue 14).
type indexDoc struct {
	entries []*entry
	byID    map[string]*entry
	extra   map[string]json.RawMessage
}

// add appends a decoded entry.
func (d *indexDoc) add(e *entry) {
	d.entries = append(d.entries, e)
	if e.raw == nil {
		if d.byID == nil {
			d.byID = map[string]*entry{}
		}
		d.byID[e.ID] = e
	}
}

// createdTime parses created_at; zero when absent or unreadable.
func (e *entry) createdTime() time.Time { return parseTime(e.CreatedAt) }

// decodeIndex parses index.json. A document that is not a JSON object, or
// whose "topics" is not a list, is an error (the caller sets the file aside).
// Entries of the wrong shape, or repeating an id, are kept raw and returned
// as warnings wrapping ErrBadIndexEntry.
func decodeIndex(data []byte) (*indexDoc, []error, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, nil, err
	}
	if top == nil {
		return nil, nil, fmt.Errorf("document is null")
	}
	var list []json.RawMessage
	if t, ok := top["topics"]; ok {
		if err := json.Unmarshal(t, &list); err != nil {
			return nil, nil, fmt.Errorf("\"topics\" is not a list: %w", err)
		}
		delete(top, "topics")
	}
	doc := &indexDoc{extra: top, byID: make(map[string]*entry, len(list))}
	var warns []error
	for i, r := range list {
		e, err := decodeEntry(r)
		if err == nil && doc.find(e.ID) != nil {
			err = fmt.Errorf("id %q repeats an earlier entry", e.ID)
		}
		if err != nil {
			warns = append(warns, fmt.Errorf("%w: entry %d: %w: kept as written and ignored", ErrBadIndexEntry, i, err))
			e = &entry{raw: r, rawID: rawEntryID(r)}
		}
		doc.add(e)
	}
	return doc, warns, nil
}

// decodeEntry decodes one topic object, keeping keys it does not own.
func decodeEntry(r json.RawMessage) (*entry, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r, &m); err != nil || m == nil {
		return nil, fmt.Errorf("not an object")
	}
	e := &entry{extra: map[string]json.RawMessage{}}
	for k, v := range m {
		var err error
		switch k {
		case "id":
			err = json.Unmarshal(v, &e.ID)
		case "name":
			err = unmarshalOptString(v, &e.Name)
		case "created_at":
			err = unmarshalOptString(v, &e.CreatedAt)
		case "sessions":
			err = json.Unmarshal(v, &e.Sessions)
		case "seen":
			err = json.Unmarshal(v, &e.Seen)
		default:
			e.extra[k] = v
		}
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", k, err)
		}
	}
	if err := checkTopicID(e.ID); err != nil {
		return nil, err
	}
	return e, nil
}

// unmarshalOptString reads a JSON string or null (as "").
func unmarshalOptString(v json.RawMessage, dst *string) error {
	var s *string
	if err := json.Unmarshal(v, &s); err != nil {
		return err
	}
	if s != nil {
		*dst = *s
	}
	return nil
}

// rawEntryID digs the id out of an entry that did not decode, if it has one.
func rawEntryID(r json.RawMessage) string {
	var probe struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(r, &probe) != nil {
		return ""
	}
	return probe.ID
}

// find returns the decoded entry for id, or nil.
func (d *indexDoc) find(id string) *entry { return d.byID[id] }

// remove drops every entry for id (decoded or raw) and reports whether any
// was there.
func (d *indexDoc) remove(id string) bool {
	n := len(d.entries)
	delete(d.byID, id)
	d.entries = slices.DeleteFunc(d.entries, func(e *entry) bool {
		return (e.raw == nil && e.ID == id) || (e.raw != nil && e.rawID == id)
	})
	return len(d.entries) != n
}

// clone deep-copies the document so an update can be written before it is
// made visible (a failed write leaves memory equal to the disk).
func (d *indexDoc) clone() *indexDoc {
	c := &indexDoc{extra: maps.Clone(d.extra), entries: make([]*entry, 0, len(d.entries)), byID: make(map[string]*entry, len(d.byID))}
	for _, e := range d.entries {
		ce := *e
		ce.Sessions = maps.Clone(e.Sessions)
		ce.Seen = maps.Clone(e.Seen)
		ce.extra = maps.Clone(e.extra)
		c.add(&ce)
	}
	return c
}

// encode renders the document as indented JSON ending in '\n': "topics"
// first, then the other top-level keys sorted; in each entry id, name,
// created_at, sessions, seen (when any), then the other keys sorted. Raw
// entries go out as they came in.
func (d *indexDoc) encode() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"topics":[`)
	for i, e := range d.entries {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := e.encode(&b); err != nil {
			return nil, err
		}
	}
	b.WriteByte(']')
	if err := writeExtra(&b, d.extra); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("indent index: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func (e *entry) encode(b *bytes.Buffer) error {
	if e.raw != nil {
		b.Write(e.raw)
		return nil
	}
	sessions := e.Sessions
	if sessions == nil {
		sessions = map[string]string{}
	}
	b.WriteByte('{')
	type keyValue struct {
		k string
		v any
	}
	kvs := []keyValue{{"id", e.ID}, {"name", e.Name}, {"created_at", e.CreatedAt}, {"sessions", sessions}}
	if len(e.Seen) > 0 {
		kvs = append(kvs, keyValue{"seen", e.Seen})
	}
	for i, kv := range kvs {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeKV(b, kv.k, kv.v); err != nil {
			return err
		}
	}
	if err := writeExtra(b, e.extra); err != nil {
		return err
	}
	b.WriteByte('}')
	return nil
}

// writeExtra appends ,"key":value for each kept key, sorted for a stable file.
func writeExtra(b *bytes.Buffer, extra map[string]json.RawMessage) error {
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		b.WriteByte(',')
		if err := writeKV(b, k, extra[k]); err != nil {
			return err
		}
	}
	return nil
}

func writeKV(b *bytes.Buffer, k string, v any) error {
	kb, err := marshalText(k)
	if err != nil {
		return err
	}
	vb, err := marshalText(v)
	if err != nil {
		return fmt.Errorf("encode %q: %w", k, err)
	}
	b.Write(kb)
	b.WriteByte(':')
	b.Write(vb)
	return nil
}

// marshalText is json.Marshal without HTML escaping, so names with < > &
// stay readable in a file people open by hand.
func marshalText(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}
