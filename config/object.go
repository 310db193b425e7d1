package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Object is a JSON object that keeps its members in file order with their
// values as raw JSON, so a file we rewrite keeps every key we did not write,
// where it was, with the same value (docs/design.md §9 ".mcp.json … keep every other
// key as written", §12). The zero value is an empty object.
//
// A key repeated in the input is refused (ErrDuplicateKey): encoding/json
// would keep the last value silently, and a rewrite would drop the other
// entry the user wrote. Object is not safe for concurrent use.
type Object struct {
	keys []string
	vals map[string]json.RawMessage
}

// UnmarshalJSON reads one JSON object. Anything else (array, string, null…)
// is an error naming what was found.
func (o *Object) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("read object: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want a JSON object, found %s", describeToken(tok))
	}
	*o = Object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("read object key: %w", err)
		}
		key, ok := tok.(string)
		if !ok {
			return fmt.Errorf("object key is %s, not a string", describeToken(tok))
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("read value of %q: %w", key, err)
		}
		if o.Has(key) {
			return fmt.Errorf("%w: %q", ErrDuplicateKey, key)
		}
		o.Set(key, raw)
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("read object end: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("trailing data after the object")
	}
	return nil
}

// MarshalJSON writes the members in order. Values are written as held;
// an invalid raw value is an error.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := MarshalNoEscape(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		v := o.vals[k]
		if !json.Valid(v) {
			return nil, fmt.Errorf("value of %q is not valid JSON", k)
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Get returns the raw value of key and whether it is present.
func (o *Object) Get(key string) (json.RawMessage, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// Has reports whether key is present.
func (o *Object) Has(key string) bool {
	_, ok := o.vals[key]
	return ok
}

// Set stores value under key: in place when the key exists, else appended.
// The slice is kept as given (callers must not change it afterwards).
func (o *Object) Set(key string, value json.RawMessage) {
	if o.vals == nil {
		o.vals = make(map[string]json.RawMessage)
	}
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = value
}

// SetValue marshals v (without HTML escaping) and stores it under key.
func (o *Object) SetValue(key string, v any) error {
	raw, err := MarshalNoEscape(v)
	if err != nil {
		return fmt.Errorf("encode %q: %w", key, err)
	}
	o.Set(key, raw)
	return nil
}

// Delete removes key; absent keys are ignored.
func (o *Object) Delete(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// Keys returns the member names in order (a copy).
func (o *Object) Keys() []string {
	return append([]string(nil), o.keys...)
}

// Clone returns an independent copy (raw values are copied too).
func (o *Object) Clone() Object {
	c := Object{keys: append([]string(nil), o.keys...)}
	if o.vals != nil {
		c.vals = make(map[string]json.RawMessage, len(o.vals))
		for k, v := range o.vals {
			c.vals[k] = append(json.RawMessage(nil), v...)
		}
	}
	return c
}

// EncodeIndented renders v as the files we write look: two-space indent, no
// HTML escaping (a user's "<" stays "<"), trailing newline.
func EncodeIndented(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MarshalNoEscape is json.Marshal without HTML escaping (each of < > &
// would become six bytes) and without the encoder's trailing newline. The
// room's frames use it too (room.EncodeFrame).
func MarshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func describeToken(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return fmt.Sprintf("%q", string(t))
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", tok)
}
