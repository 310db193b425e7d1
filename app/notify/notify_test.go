package notify

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pullcept/pullcept/testdata/testkit"
)

func TestNotifyText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"claude needs you", "claude needs you"},
		{"  two\nlines\r\n\tand a tab ", "two lines   and a tab"},
		{"esc\x1b]52;c;ZXZpbA==\x07 bell", "esc]52;c;ZXZpbA== bell"},
		{"c1\u009b2J\u009c st\x9c", "c12J st"},
		{"del\x7f nul\x00", "del nul"},
		{"rlo\u202edesrever", "rlo<U+202E>desrever"},
		{"\xff\xfe", ""},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, in := range []string{strings.Repeat("é", 150), "a" + strings.Repeat("日", 100), strings.Repeat("x", 1<<20)} {
		if got := Text(in); len(got) > TextMax || len(got) < TextMax-3 || !utf8.ValidString(got) {
			t.Errorf("Text of %d bytes: %d bytes (valid %v), want at most %d, cut between characters", len(in), len(got), utf8.ValidString(got), TextMax)
		}
	}
}

// TestNotifyForSystem: what each system's notifier would misread is replaced.
func TestNotifyForSystem(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		goos, in string
		body     bool
		want     string
	}{
		{"linux", `<a href="x">&</a>`, true, `&lt;a href="x"&gt;&amp;&lt;/a&gt;`},
		{"linux", "<b>title</b>", false, "<b>title</b>"}, // a title is plain text
		{"linux", "-u critical", false, " -u critical"},
		{"freebsd", "--help", true, " --help"},
		{"windows", "$(Start-Process calc) `e $env:PATH", true, "＄(Start-Process calc) ｀e ＄env:PATH"},
		{"windows", "a]]></text><text>b", false, "a]] ></text><text>b"},
		{"windows", "]]]>", true, "]]] >"},
		{"darwin", `say "hi" \ $x <b>`, true, `say "hi" \ $x <b>`},
	} {
		if got := forSystem(c.goos, c.in, c.body); got != c.want {
			t.Errorf("forSystem(%s, %q, body %v) = %q, want %q", c.goos, c.in, c.body, got, c.want)
		}
	}
}

// blockingNotifier stands in for beeep: it records what it was asked
// and returns only when released.
type blockingNotifier struct {
	mu      sync.Mutex
	got     []string
	release chan struct{}
}

func (n *blockingNotifier) notify(title, body string) error {
	n.mu.Lock()
	n.got = append(n.got, title+"|"+body)
	n.mu.Unlock()
	<-n.release
	return nil
}

// TestDesktopIsBounded: a desktop that never answers costs the caller the
// wait and no more, and while it hangs there is one goroutine for it:
// the next notification is refused, not queued. Once it answers, the
// next one goes through. (Not parallel: the slot is the package's.)
func TestDesktopIsBounded(t *testing.T) {
	n := &blockingNotifier{release: make(chan struct{})}
	if err := show(n.notify, time.Millisecond, "linux", "Pullcept", "a\x1b]52;c;eA==\x07 <i>b</i>"); !errors.Is(err, ErrTimeout) {
		t.Fatalf("show with a hanging desktop = %v, want ErrTimeout", err)
	}
	if err := show(n.notify, time.Hour, "linux", "again", "again"); !errors.Is(err, ErrBusy) {
		t.Fatalf("show while the last one hangs = %v, want ErrBusy", err)
	}
	close(n.release)
	quick := func(string, string) error { return nil }
	testkit.Eventually(t, "the slot free once the desktop answered", func() bool {
		return show(quick, testkit.Wait, "linux", "t", "b") == nil
	})
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.got) != 1 || n.got[0] != "Pullcept|a]52;c;eA== &lt;i&gt;b&lt;/i&gt;" {
		t.Errorf("the desktop was asked %q, want one clean notification", n.got)
	}
}

// TestDesktopReturnsTheNotifiersAnswer: an error or a panic in the notifier
// comes back as the error, and frees the slot.
func TestDesktopReturnsTheNotifiersAnswer(t *testing.T) {
	failed := errors.New("no notification daemon")
	if err := show(func(string, string) error { return failed }, testkit.Wait, "linux", "t", "b"); !errors.Is(err, failed) {
		t.Errorf("show = %v, want the notifier's error", err)
	}
	if err := show(func(string, string) error { panic("boom") }, testkit.Wait, "linux", "t", "b"); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("show with a panicking notifier = %v, want the panic as an error", err)
	}
	testkit.Eventually(t, "the slot free after a panic", func() bool {
		return show(func(string, string) error { return nil }, testkit.Wait, "linux", "t", "b") == nil
	})
}

func TestDesktopHere(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		name   string
		goos   string
		remote bool
		env    func(string) string
		want   bool
	}{
		{"macOS", "darwin", false, env(), true},
		{"Windows", "windows", false, env(), true},
		{"macOS, human over ssh", "darwin", true, env(), false},
		{"Linux, D-Bus session", "linux", false, env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus"), true},
		{"Linux, X11", "linux", false, env("DISPLAY", ":0"), true},
		{"Linux, Wayland", "linux", false, env("WAYLAND_DISPLAY", "wayland-0"), true},
		{"Linux, no desktop", "linux", false, env("TERM", "xterm"), false},
		{"Linux desktop, human over ssh", "linux", true, env("DISPLAY", ":0"), false},
		{"FreeBSD, X11", "freebsd", false, env("DISPLAY", ":0"), true},
	} {
		if got := here(c.goos, c.remote, c.env); got != c.want {
			t.Errorf("%s: here = %v, want %v", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		env  func(string) string
		want bool
	}{
		{env(), false},
		{env("SSH_CONNECTION", "192.0.2.1 50000 192.0.2.2 22"), true},
		{env("SSH_TTY", "/dev/pts/3"), true},
	} {
		if got := Remote(c.env); got != c.want {
			t.Errorf("Remote(SSH_CONNECTION %q, SSH_TTY %q) = %v, want %v", c.env("SSH_CONNECTION"), c.env("SSH_TTY"), got, c.want)
		}
	}
}

// FuzzDesktopText: whatever a seat wrote, what reaches each system's
// notifier is one line of valid UTF-8 without a control character, and
// holds nothing that system's path misreads: markup or a leading "-" on
// Linux (a body is markup, notify-send and kdialog take "-" for an
// option), "$", "`" or "]]>" on Windows (PowerShell's here-string, the
// toast's CDATA).
func FuzzDesktopText(f *testing.F) {
	for _, s := range []string{"-u critical", "<b>&amp;</b>", "$(calc) `e", "]]]>", "\u202e\x1b]52;c;x\a", "--\u200b-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, goos := range []string{"linux", "windows", "darwin"} {
			for _, body := range []bool{false, true} {
				got := forSystem(goos, Text(s), body)
				if !utf8.ValidString(got) || strings.ContainsFunc(got, func(r rune) bool {
					return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0
				}) {
					t.Fatalf("%s %v: %q", goos, body, got)
				}
				switch goos {
				case "windows":
					if strings.ContainsAny(got, "$`") || strings.Contains(got, "]]>") {
						t.Fatalf("windows: %q", got)
					}
				case "linux":
					if strings.HasPrefix(got, "-") {
						t.Fatalf("linux: leading dash %q", got)
					}
					if body {
						rest := strings.NewReplacer("&amp;", "", "&lt;", "", "&gt;", "").Replace(got)
						if strings.ContainsAny(rest, "<>&") {
							t.Fatalf("linux body: markup %q", got)
						}
					}
				}
			}
		}
	})
}

// TestDesktopSlotFreeWhenShowReturns: once show returned the notifier's
// answer, the next notification finds the slot free (it was freed after
// the answer, so one right after could get ErrBusy: a CI failure).
func TestDesktopSlotFreeWhenShowReturns(t *testing.T) {
	quick := func(string, string) error { return nil }
	for i := range 2000 {
		if err := show(quick, testkit.Wait, "linux", "t", "b"); err != nil {
			t.Fatalf("notification %d: %v", i, err)
		}
	}
}
