package app

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/blank"
)

// ExportUsage is `pullcept export`'s line of the help.
const ExportUsage = "pullcept export TOPIC [-o FILE] [--data DIR]"

// RunExport is `pullcept export TOPIC [-o FILE] [--data DIR]`: it writes the
// topic (an id or a title, exact or a unique prefix) as Markdown to stdout or
// FILE, reading the data directory without writing to it (the app may run).
// It returns the exit code: 0, 1 for a failure, 2 for a bad command line.
func RunExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "write to this file instead of stdout")
	dataDir := fs.String("data", "", "data directory")
	var topics []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			fmt.Fprintf(stderr, "pullcept export: %v\nusage: %s\n", err, ExportUsage)
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		topics, rest = append(topics, fs.Arg(0)), fs.Args()[1:]
	}
	if len(topics) != 1 {
		fmt.Fprintf(stderr, "pullcept export: name one topic\nusage: %s\n", ExportUsage)
		return 2
	}
	if err := export(topics[0], *dataDir, *out, stdout); err != nil {
		fmt.Fprintf(stderr, "pullcept export: %v\n", err)
		return 1
	}
	return 0
}

func export(query, dataDir, out string, stdout io.Writer) error {
	if dataDir == "" {
		d, err := config.DataDir()
		if err != nil {
			return err
		}
		dataDir = d
	}
	r, err := logstore.OpenReader(dataDir)
	if err != nil {
		return err
	}
	ts, err := r.Topics()
	if err != nil {
		return err
	}
	t, err := pickTopic(ts, query)
	if err != nil {
		return err
	}
	w := stdout
	var f *os.File
	if out != "" {
		if err := outsideData(out, dataDir); err != nil {
			return err
		}
		if f, err = os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); err != nil {
			return err
		}
		w = f
	}
	bw := bufio.NewWriter(w)
	err = WriteMarkdown(bw, t, r.Each)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// outsideData refuses an output file inside the data directory: -o naming
// the topic's own log emptied it before it was read, and nothing of the
// app's state is ever an export's place. Links are resolved on both sides.
func outsideData(out, dataDir string) error {
	resolve := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return r
		}
		// out may not exist yet: resolve its folder.
		if r, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			return filepath.Join(r, filepath.Base(abs))
		}
		return abs
	}
	o, d := resolve(out), resolve(dataDir)
	if rel, err := filepath.Rel(d, o); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is inside the data directory %s: write the export elsewhere", out, dataDir)
	}
	return nil
}

// pickTopic finds the topic query names: an exact id or title first, else
// the one id or title it begins; none or several is an error naming them.
func pickTopic(ts []logstore.Topic, query string) (logstore.Topic, error) {
	for _, match := range []func(t logstore.Topic) bool{
		func(t logstore.Topic) bool { return t.ID == query },
		func(t logstore.Topic) bool { return t.Name == query },
		func(t logstore.Topic) bool {
			return strings.HasPrefix(t.ID, query) || strings.HasPrefix(t.Name, query)
		},
	} {
		var found []logstore.Topic
		for _, t := range ts {
			if match(t) {
				found = append(found, t)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1:
			return logstore.Topic{}, fmt.Errorf("%q names %d topics; give more of the id or title:\n%s", query, len(found), listTopics(found))
		}
	}
	if len(ts) == 0 {
		return logstore.Topic{}, fmt.Errorf("no topic %q: the data directory has no topics", query)
	}
	return logstore.Topic{}, fmt.Errorf("no topic %q; the topics are:\n%s", query, listTopics(ts))
}

// listTopics is "  id  title" per topic, at most 20 and how many more.
func listTopics(ts []logstore.Topic) string {
	var b strings.Builder
	for i, t := range ts {
		if i == 20 {
			fmt.Fprintf(&b, "  … and %d more\n", len(ts)-20)
			break
		}
		fmt.Fprintf(&b, "  %s  %s\n", t.ID, plainText(t.Name))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// WriteMarkdown writes topic t as Markdown: its title, then each post's
// speaker, time and addressees as a heading, its body in a code fence
// longer than any backtick run it holds (a body is untrusted: no text of
// it can close the fence, become a heading or HTML), and its attachments
// as paths. each reads the topic's posts oldest first.
func WriteMarkdown(w io.Writer, t logstore.Topic, each func(string, func(logstore.Record) error) (int, error)) error {
	title := t.Name
	if strings.TrimSpace(title) == "" {
		title = "Untitled"
	}
	n := 0
	bw := &errWriter{w: w}
	bw.printf("# %s\n\nTopic `%s`, exported from Pullcept.\n", mdInline(title), t.ID)
	skipped, err := each(t.ID, func(rec logstore.Record) error {
		n++
		writePost(bw, rec)
		return bw.err
	})
	if err != nil {
		return err
	}
	if skipped > 0 {
		bw.printf("\n_%d unreadable lines of the log were skipped._\n", skipped)
	}
	if n == 0 {
		bw.printf("\n_No posts._\n")
	}
	return bw.err
}

func writePost(w *errWriter, rec logstore.Record) {
	head := mdInline(rec.Speaker) + " · " + postTime(rec.TS)
	if len(rec.To) > 0 {
		to := make([]string, len(rec.To))
		for i, n := range rec.To {
			to[i] = mdInline(n)
		}
		head += " → " + strings.Join(to, ", ")
	}
	w.printf("\n## %s\n", head)
	body, files := rec.Content, []string(nil)
	if a, ok := room.SplitAttachments(rec.Content); ok {
		body, files = a.Text, a.Paths
	}
	if strings.TrimSpace(body) != "" {
		// Fenced by what is written, not what is stored: a dropped
		// control joins backtick runs ("``\a``" is four).
		text := strings.TrimRight(plainBody(body), "\n")
		fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
		w.printf("\n%stext\n%s\n%s\n", fence, text, fence)
	}
	if len(files) > 0 {
		w.printf("\nAttachments:\n\n")
		for _, f := range files {
			w.printf("- %s\n", codeSpan(f))
		}
	}
}

// postTime is ts in local time, "2006-01-02 15:04 -07:00"; as written when
// it does not parse.
func postTime(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return mdInline(ts)
	}
	return t.Local().Format("2006-01-02 15:04 -07:00")
}

// mdInline is s as Markdown text on one line: control characters dropped,
// line breaks as spaces, and backslash-escaped the marks that mean
// something inside a line of CommonMark and GitHub's Markdown (mdSpecial:
// emphasis, code, links, HTML and entities, a heading's closing #, tables,
// strikethrough, math, mentions). Marks that matter only at a line's start
// ('-', '+', '.', '=') stay as they are: the text never starts a line
// (issue 35: "ping\-pong" in every heading).
func mdInline(s string) string {
	var b strings.Builder
	for _, r := range plainText(s) {
		if strings.ContainsRune(mdSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdSpecial are the marks mdInline escapes.
const mdSpecial = "\\`*_[]<>#!|~&$@"

// plainText is s on one line without control characters, what draws
// nothing as its code (showHidden).
func plainText(s string) string {
	return showHidden(strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case isControl(r):
			return -1
		}
		return r
	}, s))
}

// plainBody drops a body's control characters but line breaks and tabs
// (an escape sequence would restyle the terminal the export is read in),
// and shows what draws nothing as its code (showHidden).
func plainBody(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return showHidden(strings.Map(func(r rune) rune {
		if r != '\n' && r != '\t' && isControl(r) {
			return -1
		}
		return r
	}, s))
}

// showHidden writes bidi controls, tag characters and every other
// character that draws nothing as its code, as the chat shows them
// ("<U+202E>", "<12 tag characters>"; room/blank, docs/design.md §16): an
// export is read in an editor or a browser that would obey or hide them.
// The log keeps the exact text.
func showHidden(s string) string {
	shown, _ := blank.Show(s)
	return shown
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }

// codeSpan is s as inline code, its backtick fence longer than any run in s.
func codeSpan(s string) string {
	s = plainText(s)
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// longestRun is the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// errWriter keeps the first write error; later writes do nothing.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
