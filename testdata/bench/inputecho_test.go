//go:build linux

package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/testdata/fakecli"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// The flooding seat of TestCompareInputEcho: a shell that turns its
// terminal's echo off (a key that reached the pane instead of the input
// bar shows nowhere, and the test fails rather than time the wrong thing),
// says it is ready, then waits to open a FIFO in its working directory (no
// timer, no poll: an idle seat) and, once the test writes to it, prints the
// line flood in a loop, as `while :; do cat room/hub.go; done` does. Both
// files sit in the seat's working directory, which the seat sees wherever
// it runs (its own namespaces included).
const (
	floodReady  = "flood-seat-ready"
	floodFIFO   = "go.fifo"
	floodFile   = "flood.txt"
	floodScript = "stty -echo; echo " + floodReady + "; read go < " + floodFIFO + "; while :; do cat " + floodFile + "; done"
)

// floodSeatIdle matches the accounts panel row of the flooding seat once
// its terminal has been quiet long enough to say so.
var floodSeatIdle = regexp.MustCompile(`Flood +idle`)

// TestCompareInputEcho measures the input bar's key echo in the real app
// (issue 36: beside a flooding pane it stays within 2 ms of its echo alone
// at the 95th percentile): the pullcept binary at 200×50 in a seats PTY,
// one generic-CLI seat running a shell whose pane is shown, the focus on
// the input bar. Keys are typed there at a person's pace, each timed from
// its write to the typed line on the app's screen: first with the seat
// idle, then while it floods its pane with lines. It prints the echo's
// median, 95th percentile and worst case in both phases, the app's CPU
// meanwhile, and the difference of the two 95th percentiles. A
// measurement, not a timing check: it fails only when a key never shows.
func TestCompareInputEcho(t *testing.T) {
	bin := fakecli.PullceptBinary(t)
	dir := t.TempDir()
	work := floodSeatDir(t, dir)
	seat := config.Account{ID: "flood", Name: "Flood", Kind: config.KindCLI, WorkDir: work,
		Command: "/bin/sh", LaunchOptions: "-c " + config.QuoteWord(floodScript)}
	a := startApp(t, bin, dir, appEnv(t, filepath.Join(dir, "data"), []config.Account{appAdmin, seat}), StreamCols, StreamRows)
	a.waitFor("Flood")
	a.focusAccounts()
	a.press("\x1b[B") // Down
	a.waitFor("› Flood")
	a.press("s")
	a.showPanes()
	a.waitFor(floodReady)
	a.waitText("the seat idle", floodSeatIdle.MatchString)

	alone, aloneCPU := typeIntoInput(t, a, 0)
	startFlood(t, work)
	// The flood is on screen once it has scrolled the shell's first line away.
	waitScreenUntil(t, a.screen, "the flood on screen", func(txt string) bool { return !strings.Contains(txt, floodReady) })
	flooded, floodedCPU := typeIntoInput(t, a, 1)

	t.Logf("input echo alone: %s (the app used %.0f%% of a core meanwhile)", echoFigures(alone), aloneCPU)
	t.Logf("input echo beside a flooding pane (%d×%d app): %s (the app used %.0f%% of a core meanwhile)",
		StreamCols, StreamRows, echoFigures(flooded), floodedCPU)
	t.Logf("RATIO input echo: p95 beside a flood − p95 alone = %.2f ms (at most 2)",
		float64(quantile(flooded, 0.95)-quantile(alone, 0.95))/float64(time.Millisecond))
}

// floodSeatDir makes the flooding seat's working directory under dir with
// the flood's text (4 MB, as TestCompareEcho's) and the FIFO it waits on.
func floodSeatDir(t *testing.T, dir string) string {
	t.Helper()
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(work, floodFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteLineFlood(f, 4<<20); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(work, floodFIFO), 0o600); err != nil {
		t.Fatal(err)
	}
	return work
}

// startFlood lets the seat's shell go on: it opens the FIFO for writing
// once the shell waits on it (a non-blocking open fails until a reader is
// there) and writes the line its `read` waits for.
func startFlood(t *testing.T, work string) {
	t.Helper()
	var fifo *os.File
	testkit.EventuallyWithin(t, idleJoinWait, "the seat's shell waiting on its FIFO", func() bool {
		var err error
		fifo, err = os.OpenFile(filepath.Join(work, floodFIFO), os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil && !errors.Is(err, syscall.ENXIO) {
			t.Fatalf("open the seat's FIFO: %v", err)
		}
		return err == nil
	})
	if _, err := fifo.WriteString("go\n"); err != nil {
		t.Fatal(err)
	}
	if err := fifo.Close(); err != nil {
		t.Fatal(err)
	}
}

// typeIntoInput types echoKeys keys into the app's input bar, a line of
// 40 at a time behind a unique marker, clearing the bar (Ctrl+C) after each
// line so nothing is ever sent; it returns how long each key took to show
// on the app's screen and the app's CPU meanwhile, in % of a core.
func typeIntoInput(t *testing.T, a *appScreen, phase int) ([]time.Duration, float64) {
	t.Helper()
	cpu0, start := appCPU(t, a), time.Now()
	var out []time.Duration
	line := ""
	for i := range echoKeys {
		if i%40 == 0 {
			if i > 0 {
				clearInput(t, a, line)
			}
			line = fmt.Sprintf("p%d-%03d:", phase, i) // typed as one burst
			a.press(line)
			waitScreen(t, a.screen, line)
		}
		key := string(rune('a' + i%26))
		line += key
		sent := time.Now()
		a.press(key)
		waitScreen(t, a.screen, line)
		out = append(out, time.Since(sent))
		time.Sleep(echoGap + framePhase(i)) // a person's pace between keys
	}
	clearInput(t, a, line)
	cpu := appCPU(t, a) - cpu0
	return out, 100 * cpu.Seconds() / time.Since(start).Seconds()
}

// framePhase spreads the keys over the app's frame interval. The UI draws
// on a fixed clock (tui.FrameRate), so an echo waits for the next frame;
// keys typed a fixed pause after the last echo would all land at one point
// of that interval and measure it (every echo took 35 ms with echoGap
// alone). The extra pause steps through 20 points of the interval, in the
// same order in both phases, so the two compare the same schedule.
func framePhase(i int) time.Duration { return time.Duration(i*7%20) * uiFrame / 20 }

// clearInput empties the input bar (Ctrl+C) and waits until line is gone.
func clearInput(t *testing.T, a *appScreen, line string) {
	t.Helper()
	a.press("\x03")
	waitScreenUntil(t, a.screen, fmt.Sprintf("%q cleared from the input bar", line), func(txt string) bool { return !strings.Contains(txt, line) })
}

// appCPU is the app process's CPU time so far.
func appCPU(t *testing.T, a *appScreen) time.Duration {
	t.Helper()
	d, err := procCPU(a.proc.Pid())
	if err != nil {
		t.Fatalf("app CPU: %v", err)
	}
	return d
}
