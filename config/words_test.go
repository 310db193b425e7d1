package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   \t\n ", nil},
		{"--dangerously-skip-permissions", []string{"--dangerously-skip-permissions"}},
		{"  -a  b\tc\n", []string{"-a", "b", "c"}},
		{`--add-dir "C:\Program Files\x"`, []string{"--add-dir", `C:\Program Files\x`}},
		{`--add-dir C:\Users\me`, []string{"--add-dir", `C:\Users\me`}},
		{`\\server\share`, []string{`\\server\share`}},
		{`"\\server\share"`, []string{`\\server\share`}},
		{`'it''s'`, []string{"its"}},
		{`'it'\''s'`, []string{"it's"}},
		{`a\ b`, []string{"a b"}},
		{`a\"b`, []string{`a"b`}},
		{`a\'b`, []string{`a'b`}},
		{`"say \"hi\""`, []string{`say "hi"`}},
		{`'\"'`, []string{`\"`}},
		{`--settings='{"a": 1}'`, []string{`--settings={"a": 1}`}},
		{`--x="a b"c`, []string{"--x=a bc"}},
		{`'' ""`, []string{"", ""}},
		{`a'' b`, []string{"a", "b"}},
		{`trailing\`, []string{`trailing\`}},
		{`--model　opus`, []string{"--model", "opus"}}, // ideographic space separates
		{`名前 値`, []string{"名前", "値"}},
		{"{session_id} $HOME ~ *", []string{"{session_id}", "$HOME", "~", "*"}},
		{"a\xffb", []string{"a\xffb"}},
	}
	for _, tt := range tests {
		got, err := SplitWords(tt.in)
		if err != nil {
			t.Errorf("SplitWords(%q): %v", tt.in, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("SplitWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitWordsUnterminated(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`"abc`, `a 'b`, `"C:\dir\"`, `x "y\"`} {
		_, err := SplitWords(in)
		if !errors.Is(err, ErrUnterminatedQuote) {
			t.Errorf("SplitWords(%q) error = %v, want ErrUnterminatedQuote", in, err)
		}
	}
	_, err := SplitWords(`ok 'open`)
	if err == nil || !strings.Contains(err.Error(), "column 4") {
		t.Errorf("error should name the opening column 4, got %v", err)
	}
}

func TestJoinWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"claude", "--resume", "abc-123"}, "claude --resume abc-123"},
		{[]string{"a b"}, "'a b'"},
		{[]string{""}, "''"},
		{[]string{"it's"}, `'it'\''s'`},
		{[]string{`C:\Users\me`}, `C:\Users\me`},
		{[]string{`C:\dir\`}, `'C:\dir\'`},
		{[]string{`{"a":1}`}, `'{"a":1}'`},
		{[]string{"$HOME"}, "'$HOME'"},
		{[]string{"名前"}, "名前"},
	}
	for _, tt := range tests {
		got := JoinWords(tt.in)
		if got != tt.want {
			t.Errorf("JoinWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
		back, err := SplitWords(got)
		if err != nil || !slices.Equal(back, tt.in) {
			t.Errorf("SplitWords(JoinWords(%q)) = %q, %v", tt.in, back, err)
		}
	}
}

func TestRemoveFlag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, kept []string
		removed  int
	}{
		{[]string{"-a", "--session-id", "x", "-b"}, []string{"-a", "-b"}, 1},
		{[]string{"--session-id=x", "-b"}, []string{"-b"}, 1},
		{[]string{"-b", "--session-id"}, []string{"-b"}, 1},
		{[]string{"--session-id", "a", "--session-id=b"}, nil, 2},
		{[]string{"--session-idx", "y"}, []string{"--session-idx", "y"}, 0},
	}
	for _, tt := range tests {
		kept, removed := RemoveFlag(tt.in, SessionIDFlag)
		if !slices.Equal(kept, tt.kept) || len(removed) != tt.removed {
			t.Errorf("RemoveFlag(%q) = %q, %q; want %q and %d removed", tt.in, kept, removed, tt.kept, tt.removed)
		}
	}
	if !HasFlag([]string{"--settings={}"}, "--settings") || HasFlag([]string{"--settingsx"}, "--settings") {
		t.Error("HasFlag must match --flag and --flag=… only")
	}
}

// FuzzSplitWords: splitting never panics, and a split line joined again
// splits to the same words.
func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{"", `a "b c" 'd'`, `C:\x\ y`, `'\''`, "\"\\\"\"", "a\xff\tb", `x\`, `"`, "\u3000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := SplitWords(s)
		if err != nil {
			if !errors.Is(err, ErrUnterminatedQuote) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		again, err := SplitWords(JoinWords(words))
		if err != nil || !slices.Equal(again, words) {
			t.Fatalf("round trip of %q: %q → %q (%v)", s, words, again, err)
		}
	})
}

// FuzzJoinWords: any words (NUL separates them in the input) survive
// JoinWords then SplitWords.
func FuzzJoinWords(f *testing.F) {
	for _, s := range []string{"a", "a b\x00c", "it's\x00\x00", `C:\d\` + "\x00x", "\xff\x00\u00a0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words := strings.Split(s, "\x00")
		got, err := SplitWords(JoinWords(words))
		if err != nil || !slices.Equal(got, words) {
			t.Fatalf("words %q → %q → %q (%v)", words, JoinWords(words), got, err)
		}
	})
}
