package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/logstore"
)

// exportData writes two topics into a data directory: "Release plan"
// (hostile bodies) and "Release notes".
func exportData(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	s, err := logstore.Open(data, logstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	plan, notes := "0190a000-0000-7000-8000-00000000000a", "0190a000-0000-7000-8000-00000000000b"
	for i, r := range []logstore.Record{
		{MessageID: "m1", Speaker: "Kai", Content: "# heading\n```\nrm -rf /\n```\n<script>alert(1)</script>", To: logstore.Names{"Alice", "Bob_*x*"}, TS: "2026-10-01T09:00:00.000Z"},
		{MessageID: "m2", Speaker: "<b>Lin</b> [x](y)", Content: "see\n\nAttachments:\n- /data/attachments/a/shot `1`.png", TS: "2026-10-01T09:01:00.000Z"},
		{MessageID: "m3", Speaker: "Mio", Content: "bell\x07 and \x1b[31mred\x1b[0m\n````", TS: "2026-10-01T09:02:00.000Z"},
	} {
		if err := s.Append(plan, r); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if err := s.Rename(plan, "Release plan"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Append(notes, logstore.Record{MessageID: "n1", Speaker: "Kai", Content: "notes", TS: "2026-10-02T09:00:00.000Z"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Rename(notes, "Release notes"); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestExportWritesMarkdown: the title, each post's speaker, time and
// addressees as a heading, the body fenced longer than any backtick run in
// it, attachments as paths; nothing a body or a name holds becomes
// Markdown structure, HTML or an escape sequence.
func TestExportWritesMarkdown(t *testing.T) {
	t.Setenv("TZ", "UTC")
	data := exportData(t)
	var out, errb bytes.Buffer
	if code := RunExport([]string{"Release plan", "--data", data}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	md := out.String()
	for _, want := range []string{
		"# Release plan\n\nTopic `0190a000-0000-7000-8000-00000000000a`, exported from Pullcept.\n",
		"\n## Kai · 2026-10-01 09:00 +00:00 → Alice, Bob\\_\\*x\\*\n\n```` text\n# heading\n```\nrm -rf /\n```\n<script>alert(1)</script>\n````\n",
		"\n## \\<b\\>Lin\\</b\\> \\[x\\](y) · 2026-10-01 09:01 +00:00\n\n```text\nsee\n```\n\nAttachments:\n\n- ``/data/attachments/a/shot `1`.png``\n",
		"\n`````text\nbell and [31mred[0m\n````\n`````\n",
	} {
		want = strings.Replace(want, "```` text", "````text", 1)
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in:\n%s", want, md)
		}
	}
	if strings.ContainsAny(md, "\x07\x1b") {
		t.Errorf("a control character got through:\n%q", md)
	}
	// Every line outside a fence is one the exporter wrote.
	fence := ""
	for _, l := range strings.Split(md, "\n") {
		switch {
		case fence == "" && strings.HasPrefix(l, "```"):
			fence = strings.TrimSuffix(l, "text")
		case fence != "" && l == fence:
			fence = ""
		case fence == "" && l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "Topic `") && !strings.HasPrefix(l, "- ``") && l != "Attachments:":
			t.Errorf("a body line outside its fence: %q", l)
		case fence == "" && strings.HasPrefix(l, "# ") && l != "# Release plan":
			t.Errorf("a second title: %q", l)
		}
	}
}

// TestExportPicksTheTopic: an id or a unique start of one, a title or a
// unique start of one, -o; an unknown or ambiguous name is an error that
// lists the candidates.
func TestExportPicksTheTopic(t *testing.T) {
	data := exportData(t)
	file := filepath.Join(t.TempDir(), "notes.md")
	for _, args := range [][]string{{"Release n"}, {"0190a000-0000-7000-8000-00000000000b"}, {"-o", file, "Release notes"}} {
		var out, errb bytes.Buffer
		if code := RunExport(append(args, "--data", data), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		md := out.String()
		if args[0] == "-o" {
			b, err := os.ReadFile(file)
			if err != nil || out.Len() != 0 {
				t.Fatalf("-o: %v, stdout %q", err, out.String())
			}
			md = string(b)
		}
		if !strings.HasPrefix(md, "# Release notes\n") {
			t.Errorf("%v: %q", args, md)
		}
	}
	for _, c := range []struct {
		arg  string
		want []string
	}{
		{"Release", []string{`"Release" names 2 topics`, "Release plan", "Release notes"}},
		{"nothing", []string{`no topic "nothing"`, "Release plan", "Release notes"}},
	} {
		var out, errb bytes.Buffer
		if code := RunExport([]string{c.arg, "--data", data}, &out, &errb); code != 1 || out.Len() != 0 {
			t.Fatalf("%q: exit %d, stdout %q", c.arg, code, out.String())
		}
		for _, w := range c.want {
			if !strings.Contains(errb.String(), w) {
				t.Errorf("%q: %q lacks %q", c.arg, errb.String(), w)
			}
		}
	}
	var out, errb bytes.Buffer
	if code := RunExport(nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: pullcept export") {
		t.Fatalf("no topic: exit %d, %q", code, errb.String())
	}
}

// -o never writes inside the data directory: naming the topic's own log
// emptied it before it was read. The log is kept whole.
func TestExportRefusesTheDataDirectory(t *testing.T) {
	data := exportData(t)
	logs, err := filepath.Glob(filepath.Join(data, "logs", "main", "*.jsonl"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no logs: %v", err)
	}
	before, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{logs[0], filepath.Join(data, "export.md")} {
		var out, errb bytes.Buffer
		if code := RunExport([]string{"-o", target, "Release notes", "--data", data}, &out, &errb); code != 1 ||
			!strings.Contains(errb.String(), "inside the data directory") {
			t.Fatalf("-o %s: exit %d: %q", target, code, errb.String())
		}
	}
	if after, err := os.ReadFile(logs[0]); err != nil || !bytes.Equal(after, before) {
		t.Fatalf("the log changed: %v", err)
	}
}

// TestMDInlineEscapesOnlyWhatMeansSomething: a name keeps its hyphens,
// dots, slashes and parentheses as written (issue 35: "ping\\-pong"), while
// every mark that means something inside a Markdown line is escaped.
func TestMDInlineEscapesOnlyWhatMeansSomething(t *testing.T) {
	for in, want := range map[string]string{
		"ping-pong v1.2 (a/b) 50% x=y": "ping-pong v1.2 (a/b) 50% x=y",
		"*a* _b_ `c` [d](e) <f> #g":    `\*a\* \_b\_ \` + "`" + `c\` + "`" + ` \[d\](e) \<f\> \#g`,
		"a|b ~~c~~ &amp; $x$ @Lin !x":  `a\|b \~\~c\~\~ \&amp; \$x\$ \@Lin \!x`,
		`back\slash`:                   `back\\slash`,
	} {
		if got := mdInline(in); got != want {
			t.Errorf("mdInline(%q) = %q, want %q", in, got, want)
		}
	}
}
