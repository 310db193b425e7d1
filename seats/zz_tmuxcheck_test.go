package seats

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/vt"
)

func genStream(r *rand.Rand) string {
	var b strings.Builder
	cjk := []rune("日本語のテキスト行で漢字全角")
	for i := 0; i < 40; i++ {
		switch r.Intn(10) {
		case 0:
			b.WriteString("\r\n")
		case 1:
			fmt.Fprintf(&b, "\x1b[%dm", 31+r.Intn(6))
		case 2:
			b.WriteString("\x1b[0m")
		case 3, 4, 5:
			for j := r.Intn(8); j >= 0; j-- {
				b.WriteRune(cjk[r.Intn(len(cjk))])
			}
		case 6, 7:
			for j := r.Intn(8); j >= 0; j-- {
				b.WriteByte(byte('a' + r.Intn(26)))
			}
		case 8:
			fmt.Fprintf(&b, "\x1b[%d;%dH", 1+r.Intn(6), 1+r.Intn(14))
		case 9:
			b.WriteString(" ")
		}
	}
	return b.String()
}

func TestZZTmux(t *testing.T) {
	if os.Getenv("TMUXCHECK") == "" {
		t.Skip()
	}
	r := rand.New(rand.NewSource(1))
	bad, badRaw := 0, 0
	for n := 0; n < 150; n++ {
		w := 7 + r.Intn(10)
		h := 6
		stream := genStream(r)
		os.WriteFile("/tmp/tmuxcheck/s.ansi", []byte(stream), 0o644)
		exec.Command("tmux", "-L", "seatscheck", "kill-server").Run()
		var err error
		var out []byte
		for try := 0; try < 10; try++ {
			time.Sleep(100 * time.Millisecond)
			cmd := exec.Command("tmux", "-L", "seatscheck", "-f", "/dev/null", "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "stty -onlcr; cat /tmp/tmuxcheck/s.ansi; sleep 30")
			if out, err = cmd.CombinedOutput(); err == nil {
				break
			}
		}
		if err != nil {
			t.Fatal(err, string(out))
		}
		prev := ""
		for try := 0; try < 50; try++ {
			time.Sleep(60 * time.Millisecond)
			out, _ = exec.Command("tmux", "-L", "seatscheck", "capture-pane", "-p").Output()
			if strings.TrimSpace(string(out)) != "" && string(out) == prev {
				break
			}
			prev = string(out)
		}
		want := trimLines(string(out))
		s, _ := newScreen(w, h, nil, 0)
		s.Write([]byte(stream))
		s.Flush()
		got := trimLines(s.Text())
		s.Close()
		e := vt.NewEmulator(w, h)
		go io.Copy(io.Discard, e)
		e.Write([]byte(stream))
		raw := trimLines(e.String())
		if got != want {
			bad++
			t.Logf("MISMATCH w=%d stream=%q\ntmux:\n%s\nours:\n%s\nraw:\n%s", w, stream, want, got, raw)
		}
		if raw != want {
			badRaw++
		}
	}
	exec.Command("tmux", "-L", "seatscheck", "kill-server").Run()
	t.Logf("ours mismatches %d, raw x/vt mismatches %d (of 150)", bad, badRaw)
}

func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

func tmuxRender(t *testing.T, w, h int, stream string) string {
	os.WriteFile("/tmp/tmuxcheck/s.ansi", []byte(stream), 0o644)
	exec.Command("tmux", "-L", "seatscheck", "kill-server").Run()
	var err error
	var out []byte
	for try := 0; try < 10; try++ {
		time.Sleep(100 * time.Millisecond)
		cmd := exec.Command("tmux", "-L", "seatscheck", "-f", "/dev/null", "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "stty -onlcr; cat /tmp/tmuxcheck/s.ansi; echo -n; sleep 30")
		if out, err = cmd.CombinedOutput(); err == nil {
			break
		}
	}
	prev := ""
	for try := 0; try < 50; try++ {
		time.Sleep(60 * time.Millisecond)
		out, _ = exec.Command("tmux", "-L", "seatscheck", "capture-pane", "-p").Output()
		if string(out) == prev && try > 2 {
			break
		}
		prev = string(out)
	}
	return trimLines(string(out))
}

func TestZZBisect(t *testing.T) {
	stream := os.Getenv("BISECT")
	if stream == "" {
		t.Skip()
	}
	w := 13
	fmt.Sscan(os.Getenv("BISECTW"), &w)
	// tokens: escape sequences or single runes
	var toks []string
	for i := 0; i < len(stream); {
		if stream[i] == 0x1b {
			j := i + 2
			for j < len(stream) && !(stream[j] >= 0x40 && stream[j] <= 0x7e) {
				j++
			}
			toks = append(toks, stream[i:j+1])
			i = j + 1
			continue
		}
		_, n := utf8.DecodeRuneInString(stream[i:])
		toks = append(toks, stream[i:i+n])
		i += n
	}
	ours := func(s string) string {
		sc, _ := newScreen(w, 6, nil, 0)
		sc.Write([]byte(s))
		sc.Flush()
		defer sc.Close()
		return trimLines(sc.Text())
	}
	lo, hi := 0, len(toks)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		p := strings.Join(toks[:mid], "")
		if tmuxRender(t, w, 6, p) == ours(p) {
			lo = mid
		} else {
			hi = mid
		}
	}
	p := strings.Join(toks[:hi], "")
	t.Logf("first diverging prefix (%d toks): %q\nlast tok %q\ntmux:\n%s\nours:\n%s\nprev tmux:\n%s", hi, p, toks[hi-1], tmuxRender(t, w, 6, p), ours(p), tmuxRender(t, w, 6, strings.Join(toks[:lo], "")))
}

func TestZZVim(t *testing.T) {
	if os.Getenv("TMUXCHECK") == "" {
		t.Skip()
	}
	data, _ := os.ReadFile("testdata/vim_ja.ansi")
	want := tmuxRender(t, 70, 20, string(data))
	s, _ := newScreen(70, 20, nil, 0)
	s.Write(data)
	s.Flush()
	got := trimLines(s.Text())
	t.Logf("equal=%v\ntmux:\n%s\nours:\n%s", got == want, want, got)
}
