//go:build unix

package emu_test

// The tmux model: a private tmux server per stream (its own socket and
// config), one pane of the stream's size running `cat` of the stream, read
// back with capture-pane and display-message.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pullcept/pullcept/testdata/testkit"
)

// tmuxWait bounds the wait for a pane to take its whole stream (tmux
// replays megabytes in well under a second; a loaded machine is slower).
var tmuxWait = testkit.Slow(60 * time.Second)

// tmuxConf is the servers' configuration. No status line (the pane is the
// whole window), tmux's scrollback as long as the others', and window
// renames by the program (ESC k … ST) allowed: the pane prints such a
// rename after the stream, and the window-renamed hook signals the test,
// which so knows tmux has processed every byte of the stream before it.
const tmuxConf = `set -g status off
set -g history-limit %d
set -g allow-rename on
set -g automatic-rename off
set-hook -g window-renamed 'wait-for -S pcx-done'
`

// tmuxOverline is an SGR of tmux's capture-pane -e that writes overline
// as "5:3" (tmux 3.3a, grid_string_cells_code), which any reader takes for
// blink: the capture's "5:3" is read as the 53 tmux means.
var tmuxOverline = regexp.MustCompile(`\x1b\[[0-9;:]*5:3[0-9;:]*m`)

// tmuxDone is the window name the pane sets after the stream.
const tmuxDone = "pcx-done"

// tmuxModel replays streams in tmux panes. tmux is required: the suite
// fails without it, as the other tmux tests of the repository do.
type tmuxModel struct{ bin string }

func newTmuxModel(t *testing.T) tmuxModel {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("tmux is needed (apt-get install tmux): %v", err)
	}
	return tmuxModel{bin: bin}
}

func (tmuxModel) name() string { return "tmux" }

// run plays s in a fresh server's pane: `stty raw` (no output processing,
// so the pane gets the stream's bytes as they are, as the other models
// do), an empty title (tmux's own is the host name), the stream, then the
// rename that says it is done.
func (m tmuxModel) run(t *testing.T, s stream) view {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "stream.ansi")
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(file, s.data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, fmt.Appendf(nil, tmuxConf, scrollbackLimit), 0o600); err != nil {
		t.Fatal(err)
	}
	// The server's socket lives in a short directory of its own (a unix
	// socket's path is at most ~100 bytes; t.TempDir's can be longer),
	// removed with it.
	sockDir, err := os.MkdirTemp("", "pcx")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(sockDir, "s")
	tm := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(m.bin, append([]string{"-S", sock, "-f", conf}, args...)...).Output()
		if err != nil {
			t.Fatalf("tmux %s: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}
	t.Cleanup(func() {
		_ = exec.Command(m.bin, "-S", sock, "kill-server").Run()
		_ = os.RemoveAll(sockDir)
	})
	script := fmt.Sprintf(`stty raw -echo; printf '\033]2;\033\\'; cat '%s'; printf '\033k%s\033\\'; exec sleep 100000`, file, tmuxDone)
	tm("new-session", "-d", "-x", strconv.Itoa(s.cols), "-y", strconv.Itoa(s.rows), script)
	ctx, cancel := context.WithTimeout(context.Background(), tmuxWait)
	defer cancel()
	if err := exec.CommandContext(ctx, m.bin, "-S", sock, "wait-for", "pcx-done").Run(); err != nil {
		t.Fatalf("tmux did not finish the stream in %v (%v); the pane:\n%s", tmuxWait, err, tm("capture-pane", "-p"))
	}
	f := strings.Split(strings.TrimSuffix(tm("display-message", "-p",
		"#{window_name}\t#{pane_width}\t#{pane_height}\t#{cursor_x}\t#{cursor_y}\t#{cursor_flag}\t#{alternate_on}\t"+
			"#{keypad_cursor_flag}\t#{mouse_standard_flag}\t#{mouse_button_flag}\t#{mouse_all_flag}\t#{mouse_sgr_flag}\t"+
			"#{insert_flag}\t#{origin_flag}\t#{wrap_flag}\t#{history_size}\t#{pane_title}"), "\n"), "\t")
	if len(f) < 17 || f[0] != tmuxDone {
		t.Fatalf("tmux pane state %q", f)
	}
	n := func(i int) int {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			t.Fatalf("tmux field %d %q: %v", i, f[i], err)
		}
		return v
	}
	v := view{cols: n(1), rows: n(2), cursorX: n(3), cursorY: n(4), cursorVisible: f[5] == "1", alt: f[6] == "1",
		title: strings.Join(f[16:], "\t")}
	// tmux keeps a pending wrap as the cursor one past the last column;
	// the others keep it on the last column with a flag.
	v.cursorX = min(v.cursorX, v.cols-1)
	mouse := "off"
	switch {
	case f[10] == "1":
		mouse = "any"
	case f[9] == "1":
		mouse = "button"
	case f[8] == "1":
		mouse = "normal"
	}
	v.modes = map[string]string{
		"app-cursor-keys": fmt.Sprint(f[7] == "1"),
		"mouse":           mouse,
		"mouse-sgr":       fmt.Sprint(f[11] == "1"),
		"insert":          fmt.Sprint(f[12] == "1"),
		"origin":          fmt.Sprint(f[13] == "1"),
		"autowrap":        fmt.Sprint(f[14] == "1"),
	}
	// -N keeps the spaces a program wrote at a row's end (with their
	// background); the pen of -e carries across rows (decodeRows).
	capture := tmuxOverline.ReplaceAllStringFunc(tm("capture-pane", "-p", "-e", "-N"), func(sgr string) string {
		return strings.ReplaceAll(strings.ReplaceAll(sgr, ";5:3", ";53"), "[5:3", "[53")
	})
	rows := strings.Split(strings.TrimSuffix(capture, "\n"), "\n")
	if len(rows) != v.rows {
		t.Fatalf("tmux captured %d rows, want %d", len(rows), v.rows)
	}
	// tmux's capture ends a row at its last written cell: the cells past
	// it, erased ones with their background among them (tmux draws that
	// background, grid_empty_line), have no style to compare.
	var ends []int
	v.cells, ends = decodeRows(rows, v.cols, true)
	for y, end := range ends {
		for x := end; x < v.cols; x++ {
			v.cells[y][x].unknown = true
		}
	}
	v.text = make([]string, len(v.cells))
	for y, line := range v.cells {
		v.text[y] = rowText(line)
	}
	// On the alternate screen tmux's history is the saved main screen's,
	// which capture-pane does not reach.
	v.noScrollback = v.alt
	if hs := n(15); hs > 0 && !v.alt {
		lines := strings.Split(strings.TrimSuffix(tm("capture-pane", "-p", "-S", strconv.Itoa(-hs), "-E", "-1"), "\n"), "\n")
		v.scrollback = plainLines(lines)
	}
	return v
}

// TestDiffTmux plays every stream in a tmux pane and through emu and
// compares the two (terminal.Screen shows exactly what emu does: TestDiffEmu). Each stream has a tmux
// server of its own, so the streams run in parallel.
func TestDiffTmux(t *testing.T) {
	t.Parallel()
	tm := newTmuxModel(t)
	streams := diffStreams(t)
	var names []string
	for _, s := range streams {
		names = append(names, s.name)
	}
	t.Cleanup(func() { checkStale(t, "tmux/emu", names) })
	for _, s := range streams {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			expectSame(t, s, tm.run(t, s), cachedRun(t, emuModel{}, s), tm.name(), "emu")
		})
	}
}

// grammarSeeds is how many generated streams play against tmux (tmux is
// too slow to fuzz; FuzzDiffGrammar compares the in-process models), and
// grammarBudget how many candidates a failing stream's minimisation tries.
const (
	grammarSeeds  = 32
	grammarBudget = 60
)

// TestDiffGrammarTmux plays streams of the grammar, from fixed seeds, in
// tmux and through emu (leaving out the productions where tmux is wrong,
// skipsOf); a
// difference is reported with the stream minimised to the tokens that
// still show it.
func TestDiffGrammarTmux(t *testing.T) {
	t.Parallel()
	tm := newTmuxModel(t)
	for _, m := range []model{emuModel{}} {
		pair := tm.name() + "/" + m.name()
		skip := skipsOf(pair)
		for i := range grammarSeeds {
			t.Run(fmt.Sprintf("%s/%d", m.name(), i), func(t *testing.T) {
				t.Parallel()
				cols, rows, tokens := genStream(seedInput(uint64(i), 200), skip)
				play := func(tokens []string) []difference {
					s := stream{name: fmt.Sprintf("grammar/%d", i), cols: cols, rows: rows, data: []byte(strings.Join(tokens, ""))}
					return compareViews(tm.run(t, s), m.run(t, s), tm.name(), m.name())
				}
				reportMinimised(t, "", cols, rows, tokens, play, grammarBudget)
			})
		}
	}
}
