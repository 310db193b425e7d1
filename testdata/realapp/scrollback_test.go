//go:build linux

package realapp

// The scrollback a seat pane keeps, against what tmux keeps for the same
// recorded output (docs/design.md §10 "Scrollback"): the real Claude Code's
// and Codex's PTY output, recorded from the e2e tests (seats/terminal/testdata/pty),
// played through a terminal.Screen and through a tmux pane of the recorded
// size. Claude Code 2.1 draws in the alternate screen, which keeps no
// scrollback in tmux or xterm either: its own transcript scrolls with the
// wheel, which the pane forwards because Claude asks for mouse reports.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/seats/terminal"
)

// recording is one recorded seat output and the size it was recorded at.
type recording struct {
	name       string
	data       []byte
	cols, rows int
}

var recordedSize = regexp.MustCompile(`\.(\d+)x(\d+)\.ansi$`)

func recordings(t *testing.T) []recording {
	t.Helper()
	files, err := filepath.Glob("../../seats/terminal/testdata/pty/*.ansi")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings in seats/terminal/testdata/pty: %v", err)
	}
	var out []recording
	for _, f := range files {
		m := recordedSize.FindStringSubmatch(f)
		if m == nil {
			t.Fatalf("%s: no size in the name", f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := strconv.Atoi(m[1])
		rows, _ := strconv.Atoi(m[2])
		out = append(out, recording{name: filepath.Base(f), data: data, cols: cols, rows: rows})
	}
	return out
}

// paneState is what both sides are compared on.
type paneState struct {
	scrollback int
	alt        bool
	screen     string
}

func trimRows(s string, rows int) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for len(lines) < rows {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines[:rows], "\n")
}

func oursPlayed(t *testing.T, r recording, data []byte) paneState {
	t.Helper()
	s, err := terminal.NewScreen(r.cols, r.rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	for off := 0; off < len(data); off += 4096 {
		if _, err := s.Write(data[off:min(off+4096, len(data))]); err != nil {
			t.Fatal(err)
		}
	}
	s.Flush()
	return paneState{scrollback: s.ScrollbackLen(), alt: s.Snapshot().AltScreen, screen: trimRows(s.Text(), r.rows)}
}

func tmuxPlayed(t *testing.T, r recording, data []byte, k int) paneState {
	t.Helper()
	file := filepath.Join(t.TempDir(), "stream.ansi")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := fmt.Sprintf("pullcept-sb-%d-%d", os.Getpid(), k)
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-L", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", sock, "kill-server").Run() })
	// -opost: the recording is what the PTY delivered already (CR LF).
	run("-f", "/dev/null", "new-session", "-d", "-x", strconv.Itoa(r.cols), "-y", strconv.Itoa(r.rows),
		fmt.Sprintf("stty -opost -echo; cat '%s'; tmux -L %s wait-for -S played; exec sleep 600", file, sock))
	run("wait-for", "played")
	var hist int
	var alt string
	if _, err := fmt.Sscanf(run("display-message", "-p", "#{history_size} #{alternate_on}"), "%d %s", &hist, &alt); err != nil {
		t.Fatal(err)
	}
	return paneState{scrollback: hist, alt: alt == "1", screen: trimRows(run("capture-pane", "-p"), r.rows)}
}

func TestRecordedScrollbackMatchesTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed (apt-get install tmux): %v", err)
	}
	k := 0
	for _, r := range recordings(t) {
		for _, times := range []int{1, 5} {
			k++
			data := []byte(strings.Repeat(string(r.data), times))
			ours, theirs := oursPlayed(t, r, data), tmuxPlayed(t, r, data, k)
			t.Logf("%s ×%d: scrollback ours %d tmux %d, alternate screen ours %v tmux %v",
				r.name, times, ours.scrollback, theirs.scrollback, ours.alt, theirs.alt)
			if ours.scrollback != theirs.scrollback || ours.alt != theirs.alt {
				t.Errorf("%s ×%d: scrollback %d (alternate screen %v), tmux keeps %d (%v)",
					r.name, times, ours.scrollback, ours.alt, theirs.scrollback, theirs.alt)
			}
			if ours.screen != theirs.screen {
				t.Errorf("%s ×%d: the screens differ\nours:\n%s\ntmux:\n%s", r.name, times, ours.screen, theirs.screen)
			}
		}
	}
}
