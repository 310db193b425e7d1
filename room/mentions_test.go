package room

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTakeMentions(t *testing.T) {
	t.Parallel()
	roster := []string{"Lin", "Claude", "Claude Lay", "リン", "Kai"}
	tests := []struct {
		name     string
		content  string
		roster   []string
		body     string
		mentions []string
	}{
		{"ascii at start", "@Lin hello", roster, "hello", []string{"Lin"}},
		{"ascii mid line", "hello @Lin how are you", roster, "hello how are you", []string{"Lin"}},
		{"japanese, no space before full-width at", "お疲れ様です＠Lin、確認お願いします", roster, "お疲れ様です、確認お願いします", []string{"Lin"}},
		{"japanese name, half-width at", "確認@リン よろしく", roster, "確認よろしく", []string{"リン"}},
		{"longest match wins", "@Claude Lay please look", roster, "please look", []string{"Claude Lay"}},
		{"shorter name when the longer does not fit", "@Claude please look", roster, "please look", []string{"Claude"}},
		{"case-insensitive, roster spelling kept", "@lin and @CLAUDE LAY hi", roster, "and hi", []string{"Lin", "Claude Lay"}},
		{"a leading address takes its comma", "@Lin, can you check?", roster, "can you check?", []string{"Lin"}},
		{"a leading address list", "@Lin, @Kai: please review", roster, "please review", []string{"Lin", "Kai"}},
		{"japanese address list", "＠リン、＠Kai：確認お願いします", roster, "確認お願いします", []string{"リン", "Kai"}},
		{"a list mid line", "Hi @Lin, @Kai!", roster, "Hi!", []string{"Lin", "Kai"}},
		{"a comma before a word stays", "thanks @Lin, see you", roster, "thanks, see you", []string{"Lin"}},
		{"a comma before an unknown @ stays", "cc @Lin, @Nobody", roster, "cc, @Nobody", []string{"Lin"}},
		{"only an address and a colon", "@Lin:\nbody", roster, "body", []string{"Lin"}},
		{"punctuation after stays mid line", "thanks @Lin! bye", roster, "thanks! bye", []string{"Lin"}},
		{"closing punctuation takes the space before", "ok @Lin!", roster, "ok!", []string{"Lin"}},
		{"comma right after", "thanks @Lin, see you", roster, "thanks, see you", []string{"Lin"}},
		{"question mark, then more", "can you @Kai? and @Lin.", roster, "can you? and.", []string{"Kai", "Lin"}},
		{"japanese full stop", "お願いします @リン。", roster, "お願いします。", []string{"リン"}},
		{"closing bracket", "(ask @Lin)", roster, "(ask)", []string{"Lin"}},
		{"opening bracket keeps the space", "ask @Lin(the tests)", roster, "ask (the tests)", []string{"Lin"}},
		{"dash keeps the space", "ask @Lin-san", roster, "ask -san", []string{"Lin"}},
		{"space then punctuation keeps the space", "ok @Lin !", roster, "ok !", []string{"Lin"}},
		{"two mentions before punctuation", "ok @Lin @Kai!", roster, "ok!", []string{"Lin", "Kai"}},
		{"name followed by a letter is no mention", "@Linda hi", roster, "@Linda hi", nil},
		{"end of line drops the whitespace before", "thanks @Lin", roster, "thanks", []string{"Lin"}},
		{"end of line with trailing spaces", "thanks @Lin  \nnext line", roster, "thanks\nnext line", []string{"Lin"}},
		{"line that was only a mention disappears", "@Lin\nplease check the build", roster, "please check the build", []string{"Lin"}},
		{"indented mention-only line disappears", "first\n  @Lin @Kai  \nlast", roster, "first\nlast", []string{"Lin", "Kai"}},
		{"crlf mention-only line disappears", "@Lin\r\nbody", roster, "body", []string{"Lin"}},
		{"unmatched stays", "mail bob@example.com or @Nobody now", roster, "mail bob@example.com or @Nobody now", nil},
		{"unmatched next to matched", "@Nobody @Lin hi", roster, "@Nobody hi", []string{"Lin"}},
		{"repeats taken once", "@Lin hi @lin", roster, "hi", []string{"Lin"}},
		{"mentions in order", "@Kai @Lin go", roster, "go", []string{"Kai", "Lin"}},
		{"lone at", "@ alone", roster, "@ alone", nil},
		{"double at keeps the first", "@@Lin hi", roster, "@hi", []string{"Lin"}},
		{"empty roster", "@Lin hi", nil, "@Lin hi", nil},
		{"empty names ignored", "@ hi", []string{"", " "}, "@ hi", nil},
		{"duplicate roster names", "@lin hi", []string{"Lin", "lin", "LIN"}, "hi", []string{"Lin"}},
		{"only mentions leaves empty", "@Lin @Kai", roster, "", []string{"Lin", "Kai"}},
		{"invalid utf-8 kept", "\xff@Lin \xfe", roster, "\xff\xfe", []string{"Lin"}},
		{"tabs after mention", "@Lin\tgo", roster, "go", []string{"Lin"}},
		{"name with a space needs the whole name", "@Claude Layla hi", []string{"Claude Lay"}, "@Claude Layla hi", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, mentions := TakeMentions(tt.content, tt.roster)
			if body != tt.body {
				t.Errorf("body = %q, want %q", body, tt.body)
			}
			if !slices.Equal(mentions, tt.mentions) {
				t.Errorf("mentions = %q, want %q", mentions, tt.mentions)
			}
		})
	}
}

func TestAddressees(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []string
		want []string
	}{
		{nil, nil},
		{[]string{}, nil},
		{[]string{"", "  "}, nil},
		{[]string{" Lin ", "Kai"}, []string{"Lin", "Kai"}},
		{[]string{"Lin", "lin", "LIN", "Kai", "Lin"}, []string{"Lin", "Kai"}},
	}
	for _, tt := range tests {
		if got := Addressees(tt.in); !slices.Equal(got, tt.want) || (tt.want == nil && got != nil) {
			t.Errorf("Addressees(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

// TestDeliverAddressing checks the merge of explicit to and mentions and the
// refusals, through Deliver.
func TestDeliverAddressing(t *testing.T) {
	t.Parallel()
	log := newMemLog()
	h := newTestHub(t, log, nil, testAccounts)
	mustOpen(t, h, "t")
	a := seat(t, h, "t", "Lin", "cc")
	seat(t, h, "t", "Kai", "cx")
	seat(t, h, "t", "Lay", "gen")
	sub := h.Subscribe()
	defer sub.Close()

	tests := []struct {
		name    string
		draft   Draft
		content string
		to      []string
		err     error
	}{
		{"explicit first, then mentions, no repeats", Draft{Content: "@Lin @Kai hi", To: []string{" Lay ", "", "lay", "lin"}}, "hi", []string{"Lay", "lin", "Kai"}, nil},
		{"no addressees omits to", Draft{Content: "plain"}, "plain", nil, nil},
		{"mention only moves to", Draft{Content: "ping @Kai"}, "ping", []string{"Kai"}, nil},
		{"only mentions refused", Draft{Content: "@Lin  \n @Kai", To: []string{"Lay"}}, "", nil, ErrOnlyMentions},
		{"empty refused", Draft{Content: " \n\t"}, "", nil, ErrEmptyPost},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(log.ids("t"))
			res, err := a.Post(tt.draft)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				if n := len(log.ids("t")); n != before {
					t.Fatalf("refused post was logged (%d → %d lines)", before, n)
				}
				return
			}
			if err != nil || !res.Delivered {
				t.Fatalf("post: %v, delivered %v", err, res.Delivered)
			}
			if res.Post.Content != tt.content || !slices.Equal(res.Post.To, tt.to) || (tt.to == nil && res.Post.To != nil) {
				t.Fatalf("post = %q to %#v, want %q to %#v", res.Post.Content, res.Post.To, tt.content, tt.to)
			}
			ev := nextEvent(t, sub, func(e PostDelivered) bool { return e.Post.MessageID == res.Post.MessageID })
			if ev.Post.Content != tt.content {
				t.Fatalf("event content %q", ev.Post.Content)
			}
		})
	}
	// Refused posts produced no event: the next event is the next post.
	p := say(t, a, "after refusals", "")
	ev := nextEvent[PostDelivered](t, sub, nil)
	if ev.Post.MessageID != p.MessageID {
		t.Fatalf("next event is %q (%q), want the post after the refusals", ev.Post.MessageID, ev.Post.Content)
	}
}

func FuzzTakeMentions(f *testing.F) {
	f.Add("@Lin hello", "Lin", "Claude Lay")
	f.Add("お疲れ様です＠Lin、確認", "Lin", "リン")
	f.Add("@Claude Lay\n@Claude x", "Claude", "Claude Lay")
	f.Add("a@b @ ＠ @@", "b", "")
	f.Add("  @Lin  \r\n@lin.", "LIN", "lin")
	f.Add("\xff@\xfeLin", "\xfeLin", "Lin")
	f.Add("ok @Ann!", "Ann", "Bo")
	f.Add("thanks @Ann, @Bo. (ask @Ann)", "Ann", "Bo")
	f.Add("お願い @アン。", "アン", "Ann")
	f.Add("@Ann, @Bo: please review", "Ann", "Bo")
	f.Add("Hi @Ann, @Bo!", "Ann", "Bo")
	f.Fuzz(func(t *testing.T, content, n1, n2 string) {
		roster := []string{n1, n2}
		body, mentions := TakeMentions(content, roster)
		if mentions == nil {
			if body != content {
				t.Fatalf("no mention but body changed: %q → %q", content, body)
			}
			return
		}
		if len(body) >= len(content) {
			t.Fatalf("mentions %q taken but body did not shrink: %q → %q", mentions, content, body)
		}
		if strings.Count(body, "\n") > strings.Count(content, "\n") {
			t.Fatalf("body gained lines: %q → %q", content, body)
		}
		for i, m := range mentions {
			if !slices.Contains(roster, m) {
				t.Fatalf("mention %q not a roster spelling %q", m, roster)
			}
			if !utf8.ValidString(m) || strings.TrimSpace(m) == "" {
				t.Fatalf("mention %q is not a name", m)
			}
			for _, o := range mentions[:i] {
				if strings.EqualFold(o, m) {
					t.Fatalf("mention %q repeated in %q", m, mentions)
				}
			}
		}
		// Deterministic and stable: running it again on the body takes
		// nothing that was not there (a second pass never grows the body).
		body2, _ := TakeMentions(body, roster)
		if len(body2) > len(body) {
			t.Fatalf("second pass grew the body: %q → %q", body, body2)
		}
	})
}
