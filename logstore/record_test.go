package logstore

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestLineSchemaWrite checks the exact line Append writes (docs/design.md §8): keys in
// order, absent keys omitted, from_app only when true, to as a list, no
// hue/own/role, no HTML escaping, one line ending in '\n'.
func TestLineSchemaWrite(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		rec  Record
		want string
	}{
		{
			name: "minimal",
			rec:  Record{MessageID: "m1", Speaker: "Lin", Content: "hi", TS: "2026-10-01T16:14:05.123Z"},
			want: `{"message_id":"m1","speaker":"Lin","content":"hi","ts":"2026-10-01T16:14:05.123Z"}`,
		},
		{
			name: "every key",
			rec: Record{MessageID: "m2", Speaker: "Lin", FullName: "Claude Lin", Account: "acc-1",
				FromApp: true, Content: "a\nb", To: Names{"Kai", "Mio"}, TS: "2026-10-01T16:14:05.123Z"},
			want: `{"message_id":"m2","speaker":"Lin","full_name":"Claude Lin","account":"acc-1","from_app":true,"content":"a\nb","to":["Kai","Mio"],"ts":"2026-10-01T16:14:05.123Z"}`,
		},
		{
			name: "from_app false and empty to are omitted",
			rec:  Record{MessageID: "m3", Speaker: "Pullcept", FromApp: false, Content: "x", To: Names{}, TS: "t"},
			want: `{"message_id":"m3","speaker":"Pullcept","content":"x","ts":"t"}`,
		},
		{
			name: "one addressee is still a list",
			rec:  Record{MessageID: "m4", Speaker: "Lin", Content: "x", To: Names{"Kai"}, TS: "t"},
			want: `{"message_id":"m4","speaker":"Lin","content":"x","to":["Kai"],"ts":"t"}`,
		},
		{
			name: "html and japanese stay readable",
			rec:  Record{MessageID: "m5", Speaker: "人", Content: "<b>&こんにちは", TS: "t"},
			want: `{"message_id":"m5","speaker":"人","content":"<b>&こんにちは","ts":"t"}`,
		},
		{
			name: "empty content is kept",
			rec:  Record{MessageID: "m6", Speaker: "Lin", TS: "t"},
			want: `{"message_id":"m6","speaker":"Lin","content":"","ts":"t"}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := openStore(t)
			if err := s.Append("topic-1", tc.rec); err != nil {
				t.Fatal(err)
			}
			got := readFile(t, s.logPath("topic-1"))
			if got != tc.want+"\n" {
				t.Fatalf("line\n got %s\nwant %s", got, tc.want)
			}
			for _, k := range []string{`"hue"`, `"own"`, `"role"`} {
				if strings.Contains(got, k) {
					t.Fatalf("line has %s: %s", k, got)
				}
			}
		})
	}
}

// TestLineSchemaRead checks how lines are read: `to` as string, list or null;
// from_app absent = false; account absent = ""; unknown keys (hue written by
// an old version) ignored; bad shapes skipped.
func TestLineSchemaRead(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		line string
		want *Record // nil: the line is skipped and counted
	}{
		{"to as string", `{"message_id":"a","speaker":"L","content":"c","to":"Kai","ts":"t"}`,
			&Record{MessageID: "a", Speaker: "L", Content: "c", To: Names{"Kai"}, TS: "t"}},
		{"to as list", `{"message_id":"a","speaker":"L","content":"c","to":["Kai","Mio"],"ts":"t"}`,
			&Record{MessageID: "a", Speaker: "L", Content: "c", To: Names{"Kai", "Mio"}, TS: "t"}},
		{"to null", `{"message_id":"a","speaker":"L","content":"c","to":null,"ts":"t"}`,
			&Record{MessageID: "a", Speaker: "L", Content: "c", TS: "t"}},
		{"to empty string", `{"message_id":"a","speaker":"L","content":"c","to":"","ts":"t"}`,
			&Record{MessageID: "a", Speaker: "L", Content: "c", TS: "t"}},
		{"from_app and account", `{"message_id":"a","speaker":"Pullcept","account":"x","from_app":true,"content":"c","ts":"t"}`,
			&Record{MessageID: "a", Speaker: "Pullcept", Account: "x", FromApp: true, Content: "c", TS: "t"}},
		{"old line with hue and own", `{"message_id":"a","speaker":"L","hue":120,"own":true,"content":"c","ts":"t"}`,
			&Record{MessageID: "a", Speaker: "L", Content: "c", TS: "t"}},
		{"crlf line end", "{\"message_id\":\"a\",\"speaker\":\"L\",\"content\":\"c\",\"ts\":\"t\"}\r",
			&Record{MessageID: "a", Speaker: "L", Content: "c", TS: "t"}},
		{"no message_id", `{"speaker":"L","content":"c","ts":"t"}`, nil},
		{"empty message_id", `{"message_id":"","speaker":"L","content":"c","ts":"t"}`, nil},
		{"to of numbers", `{"message_id":"a","to":[1,2]}`, nil},
		{"content of wrong type", `{"message_id":"a","content":5}`, nil},
		{"array", `["message_id","a"]`, nil},
		{"null", `null`, nil},
		{"number", `42`, nil},
		{"torn", `{"message_id":"a","speaker":"L","cont`, nil},
		{"trailing junk", `{"message_id":"a"} x`, nil},
		{"binary", "\x00\xff\xfe{\x01", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := openStore(t)
			good := post("ok", "fine")
			writeFile(t, s.logPath("t1"), line(t, good)+tc.line+"\n")
			recs, more, err := s.Page("t1", "", 10)
			if err != nil {
				t.Fatal(err)
			}
			if more {
				t.Fatal("hasMore with every record returned")
			}
			want := []Record{good}
			wantSkipped := 1
			if tc.want != nil {
				want, wantSkipped = append(want, *tc.want), 0
			}
			if !reflect.DeepEqual(recs, want) {
				t.Fatalf("records\n got %#v\nwant %#v", recs, want)
			}
			if got := s.Skipped("t1"); got != wantSkipped {
				t.Fatalf("Skipped = %d, want %d", got, wantSkipped)
			}
		})
	}
}

// TestNamesJSON covers Names on its own: it marshals as a list and reads the
// three shapes a log may hold.
func TestNamesJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(Names{"a"})
	if err != nil || string(b) != `["a"]` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	for in, want := range map[string]Names{`"x"`: {"x"}, `["x","y"]`: {"x", "y"}, `null`: nil, `""`: nil, `[]`: {}} {
		var n Names
		if err := json.Unmarshal([]byte(in), &n); err != nil {
			t.Fatalf("Unmarshal(%s): %v", in, err)
		}
		if !reflect.DeepEqual(n, want) {
			t.Fatalf("Unmarshal(%s) = %#v, want %#v", in, n, want)
		}
	}
	var n Names
	if err := json.Unmarshal([]byte(`{"a":1}`), &n); err == nil {
		t.Fatal("Unmarshal of an object succeeded")
	}
}
