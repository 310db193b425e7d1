package config

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestObjectKeepsOrderAndValues(t *testing.T) {
	t.Parallel()
	var dup Object
	if err := json.Unmarshal([]byte(`{"z": 1, "a": {"z": 1, "y": 2}, "z": 2}`), &dup); !errors.Is(err, ErrDuplicateKey) || !strings.Contains(err.Error(), `"z"`) {
		t.Fatalf("a repeated key: %v, want ErrDuplicateKey naming it", err)
	}
	in := `{"z": 1, "a": {"nested": [1, 2]}, "m": "x<y"}`
	var o Object
	if err := json.Unmarshal([]byte(in), &o); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.Keys(), []string{"z", "a", "m"}) {
		t.Errorf("keys %q", o.Keys())
	}
	o.Set("a", json.RawMessage(`true`))
	o.Set("new", json.RawMessage(`null`))
	o.Delete("z")
	o.Delete("absent")
	out, err := EncodeIndented(o)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": true,\n  \"m\": \"x<y\",\n  \"new\": null\n}\n"
	if string(out) != want {
		t.Errorf("encoded\n%s\nwant\n%s", out, want)
	}
	c := o.Clone()
	c.Set("m", json.RawMessage(`1`))
	if v, _ := o.Get("m"); string(v) != `"x<y"` {
		t.Error("Clone shares values with the original")
	}
}

func TestObjectRejectsNonObjects(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`[]`, `"s"`, `null`, `1`} {
		var o Object
		if err := json.Unmarshal([]byte(in), &o); err == nil {
			t.Errorf("Unmarshal(%s) accepted a non-object", in)
		}
	}
	if _, err := (Object{keys: []string{"k"}, vals: map[string]json.RawMessage{"k": json.RawMessage("{bad")}}).MarshalJSON(); err == nil {
		t.Error("invalid raw value marshalled")
	}
}
