package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/seats/limits"
	"github.com/pullcept/pullcept/seats/pty"
)

// The release check of a Codex seat stopped on its usage limit (spec #294
// «app-server へは、問い合わせのたびに codex app-server を一つ起動し、stdio
// で聞く»; docs/clis.md §3.7): a short-lived `codex app-server` over stdio
// with the seat's command, environment, working directory and CODEX_HOME —
// the seat's own account is asked — sending initialize, initialized and
// account/rateLimits/read: no conversation, no model call. Only
// ordinaryUsageAllowed true is a release; everything else is "still
// limited".

// codexCheckTimeout bounds one check; past it the process tree is ended
// and the answer is "no answer".
const codexCheckTimeout = 20 * time.Second

// codexCheckMaxLine bounds one line read from the server.
const codexCheckMaxLine = 4 << 20

// codexReleaseAnswer is the part of account/rateLimits/read's answer read.
type codexReleaseAnswer struct {
	OrdinaryUsageAllowed *bool `json:"ordinaryUsageAllowed"`
	RateLimits           *struct {
		Primary   *codexReleaseWindow `json:"primary"`
		Secondary *codexReleaseWindow `json:"secondary"`
	} `json:"rateLimits"`
}

type codexReleaseWindow struct {
	UsedPercent float64 `json:"usedPercent"`
	ResetsAt    *int64  `json:"resetsAt"`
}

// release reads the verdict and the reset of the window used most.
func (r codexReleaseAnswer) release() limits.Release {
	out := limits.Release{Allowed: r.OrdinaryUsageAllowed}
	if r.RateLimits == nil {
		return out
	}
	best := -1.0
	for _, w := range []*codexReleaseWindow{r.RateLimits.Primary, r.RateLimits.Secondary} {
		if w == nil || w.ResetsAt == nil || *w.ResetsAt <= 0 || *w.ResetsAt > maxEpochSeconds {
			continue
		}
		at := time.Unix(*w.ResetsAt, 0)
		if w.UsedPercent > best || (w.UsedPercent == best && at.After(out.ResetsAt)) {
			best, out.ResetsAt = w.UsedPercent, at
		}
	}
	return out
}

// maxEpochSeconds bounds an epoch in seconds read from a CLI (year 9999).
const maxEpochSeconds = 253402300799

// codexCheckCommand is the check's command line: the seat's command with
// app-server, through cmd.exe on Windows unless it is an .exe (npm's
// codex.cmd).
func codexCheckCommand(command, goos string) []string {
	if goos == "windows" && !strings.EqualFold(pathExt(command), ".exe") {
		return []string{"cmd.exe", "/C", command, "app-server"}
	}
	return []string{command, "app-server"}
}

func pathExt(p string) string {
	i := strings.LastIndexAny(p, `.\/`)
	if i < 0 || p[i] != '.' {
		return ""
	}
	return p[i:]
}

// checkCodexRelease runs one check. env is the seat's whole environment;
// dir its working directory.
func checkCodexRelease(ctx context.Context, argv, env []string, dir string) (limits.Release, error) {
	ctx, cancel := context.WithTimeout(ctx, codexCheckTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	pty.EndTreeOnCancel(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return limits.Release{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return limits.Release{}, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return limits.Release{}, fmt.Errorf("codex app-server (release check): %w", err)
	}
	rel, err := codexCheckExchange(stdin, stdout)
	_ = stdin.Close() // the server ends when its input does
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cancel() // CommandContext's Cancel ends the tree
		<-done
	}
	if ctx.Err() != nil && err != nil {
		return limits.Release{}, fmt.Errorf("codex app-server (release check): no answer in %s", codexCheckTimeout)
	}
	return rel, err
}

// codexCheckExchange sends the three messages and reads the answer.
func codexCheckExchange(w io.Writer, r io.Reader) (limits.Release, error) {
	msgs := []map[string]any{
		{"id": 1, "method": "initialize", "params": map[string]any{"clientInfo": map[string]any{"name": "pullcept", "title": "Pullcept", "version": "1"}}},
		{"method": "initialized"},
		{"id": 2, "method": "account/rateLimits/read"},
	}
	for _, m := range msgs {
		b, _ := json.Marshal(m)
		if _, err := w.Write(append(b, '\n')); err != nil {
			return limits.Release{}, fmt.Errorf("codex app-server (release check): write: %w", err)
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), codexCheckMaxLine)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || rpcID(msg.ID) != "2" {
			continue
		}
		if msg.Error != nil {
			return limits.Release{}, fmt.Errorf("codex app-server (release check): %s", msg.Error.Message)
		}
		var rl codexReleaseAnswer
		if err := json.Unmarshal(msg.Result, &rl); err != nil {
			return limits.Release{}, fmt.Errorf("codex app-server (release check): unreadable answer: %w", err)
		}
		return rl.release(), nil
	}
	if err := sc.Err(); err != nil {
		return limits.Release{}, fmt.Errorf("codex app-server (release check): %w", err)
	}
	return limits.Release{}, errors.New("codex app-server (release check): ended without an answer")
}

// CheckRelease runs the release check for acct's Codex with the
// seat's environment env (release.go).
func CheckRelease(ctx context.Context, acct config.Account, env []string) (limits.Release, error) {
	argv := codexCheckCommand(launch.ResolveCommandOr(acct.Command), runtime.GOOS)
	return checkCodexRelease(ctx, argv, env, acct.WorkDir)
}
