//go:build linux || darwin

package seats_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/seats/cli/claude"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// TestE2EClaudeUsageLimit: the real Claude Code 2.1.328 is refused on its
// plan's limit (the fake answers the 429 Claude writes its refusal entry
// for, docs/clis.md §2.17). Pullcept reads the stop from the transcript:
// the room gets a notice (not typed into the seat), the panel shows the
// seat limited with its reset, the resume prompt is typed into the seat
// once the reset and the grace passed (the Manager's clock is moved past
// them), and the seat's next normal answer is the recovery.
func TestE2EClaudeUsageLimit(t *testing.T) {
	testClaudeUsageLimit(t, "")
}

// TestE2EClaudeUsageLimitNamedProject: the same with
// CLAUDE_CODE_PROJECT_DIR_NAME set, so the real Claude Code keeps the
// transcript in projects/<name>/ rather than under its cwd's slug: the
// stop is still read from it, and the transcript is where Pullcept looks.
// Before, the watcher followed the slug's path, and the stop was never
// seen.
func TestE2EClaudeUsageLimitNamedProject(t *testing.T) {
	testClaudeUsageLimit(t, "pullcept-e2e-project")
}

// testClaudeUsageLimit is TestE2EClaudeUsageLimit with the project folder
// named by CLAUDE_CODE_PROJECT_DIR_NAME ("" none).
func testClaudeUsageLimit(t *testing.T, project string) {
	var refused atomic.Bool
	script := fakeapi.Script{}
	// The reset an hour ahead: Claude itself waits for and retries a near
	// one (measured); the test moves the Manager's clock past it.
	var reset atomic.Int64
	respond := func(req *fakeapi.Request) fakeapi.Reply {
		posts := req.NewPosts()
		if len(posts) > 0 && posts[len(posts)-1].FirstLine() == "hello" && !refused.Swap(true) {
			at := time.Now().Add(time.Hour).Truncate(time.Second)
			reset.Store(at.Unix())
			return fakeapi.ClaudeRateLimit(at)
		}
		if len(posts) > 0 && posts[len(posts)-1].Tag.Role == string(room.RoleApp) {
			return fakeapi.TextReply("back at work")
		}
		return script.Decide(withoutSeatPosts(req))
	}
	limits := claudeLimits()
	r := newRigWith(t, fakeapi.Options{Respond: respond, ClaudeLimits: &limits}, 0)
	env, setup := fakeapi.ClaudeEnv(t, r.base, r.root)
	if project != "" {
		env = append(env, claude.EnvProjectDirName+"="+project)
	}
	r.setEnv(gateway(env))
	ada := r.claudeAccount("ada", "Ada")
	res, s := r.start(ada.ID)
	r.waitReady(ada.ID, s)

	r.post("hello @Ada")
	stop := r.waitPost("the stop notice", func(p room.Post) bool {
		return p.FromApp && strings.Contains(p.Content, "Ada stopped on its usage limit")
	})
	if !strings.HasSuffix(stop.Content, "(no reply needed)") || stop.Role != room.RoleApp || stop.Speaker != room.AppSpeaker {
		t.Errorf("stop notice %+v", stop)
	}
	in := r.seatInfo(ada.ID)
	if !in.Limit.Limited || in.Limit.ResetsAt.Unix() != reset.Load() {
		t.Errorf("panel while stopped: %+v (reset %d)", in.Limit, reset.Load())
	}
	if project != "" {
		named := filepath.Join(setup.ConfigDir, "projects", project, res.SessionID+".jsonl")
		if _, err := os.Stat(named); err != nil {
			t.Errorf("the CLI's transcript is not in the named project: %v", err)
		}
	}
	r.skip.Store(int64(time.Hour + 5*time.Second)) // past the reset and the grace
	typed := r.waitPost("the prompt notice", func(p room.Post) bool {
		return p.FromApp && strings.Contains(p.Content, "types a resume prompt")
	})
	e2eUntil(t, "the resume prompt reached the model", func() bool {
		return slices.ContainsFunc(r.fake.Exchanges(), func(ex fakeapi.Exchange) bool {
			return len(carrying(ex.Request, typed.MessageID)) > 0
		})
	}, s.Done())
	e2eUntil(t, "Ada recovered (a normal answer)", func() bool { return !r.seatInfo(ada.ID).Limit.Limited }, s.Done())
	// Neither notice was typed into Ada: only the prompt carries the id.
	for _, ex := range r.fake.Exchanges() {
		if len(carrying(ex.Request, stop.MessageID)) > 0 {
			t.Errorf("the stop notice was typed into Ada")
		}
	}
}

// TestE2ECodexUsageLimit: the real Codex 0.169.0, an app-server seat, is
// refused on its plan's limit (a usage_limit_reached 429, docs/clis.md
// §3.6). Pullcept reads the stop from the rollout: a room notice, the
// seat's mark, the panel limited. The seat restarted keeps it limited (the
// mark) and is asked at once. The release checks run the real `codex
// app-server` over stdio against the fake ChatGPT usage backend: "not
// allowed" keeps it limited, "allowed" releases it — mark cleared, a
// notice, the resume prompt typed into the seat and read by the model.
func TestE2ECodexUsageLimit(t *testing.T) {
	var refused, allowed atomic.Bool
	var asked atomic.Int32
	script := fakeapi.Script{}
	respond := func(req *fakeapi.Request) fakeapi.Reply {
		posts := req.NewPosts()
		if len(posts) > 0 && posts[len(posts)-1].FirstLine() == "hello" && !refused.Swap(true) {
			return fakeapi.CodexUsageLimit(time.Now().Add(time.Hour).Truncate(time.Second))
		}
		if len(posts) > 0 && posts[len(posts)-1].Tag.Role == string(room.RoleApp) {
			return fakeapi.TextReply("resuming")
		}
		return script.Decide(withoutSeatPosts(req))
	}
	reset := time.Now().Add(time.Hour).Truncate(time.Second)
	usage := func(*fakeapi.Request) fakeapi.CodexUsage {
		asked.Add(1)
		// Not allowed yet names the reset an hour ahead: the next ask
		// waits for it, not for the one-minute step.
		return fakeapi.CodexUsage{Allowed: allowed.Load(), LimitReached: !allowed.Load(),
			Primary: &fakeapi.CodexLimit{UsedPercent: 100, WindowMinutes: 300, ResetsAt: reset}}
	}
	// The plan's windows on every answer, the 429's too: the 5-hour one
	// used up, resetting in 100 minutes by the rollout's token_count — the
	// server, asked at the stop, says an hour, and its word is the notice's
	// and the panel's (spec #294; issue 34 item 16).
	rolloutReset := reset.Add(40 * time.Minute)
	limits := fakeapi.CodexLimits{Primary: &fakeapi.CodexLimit{UsedPercent: 100, WindowMinutes: 300, ResetsAt: rolloutReset},
		Secondary: &fakeapi.CodexLimit{UsedPercent: 30, WindowMinutes: 10080, ResetsAt: reset.Add(72 * time.Hour)}}
	r := newRigWith(t, fakeapi.Options{Respond: respond, CodexUsage: usage, CodexLimits: []fakeapi.CodexLimits{limits}}, 0)
	on := true
	cody := r.codexAccount("cody", "Cody")
	cody.CodexAppServer = &on
	r.addAccount(cody)
	env, err := fakeapi.PrepareCodex(fakeapi.CodexSetup{Home: filepath.Join(t.TempDir(), "codex-home"),
		WorkDirs: []string{cody.WorkDir}, BaseURL: r.base, ChatGPTLogin: true})
	if err != nil {
		t.Fatal(err)
	}
	r.setEnv(env)
	_, s := r.start(cody.ID)
	r.waitReady(cody.ID, s)
	r.post("hello @Cody")
	stop := r.waitPost("the stop notice", func(p room.Post) bool {
		return p.FromApp && strings.Contains(p.Content, "Cody stopped on its usage limit. It resets")
	})
	if want := reset.In(time.Local).Format("Jan 2 15:04"); !strings.Contains(stop.Content, "It resets "+want+".") || asked.Load() < 1 {
		t.Errorf("stop notice %q (server asked %d times), want the server's reset %s", stop.Content, asked.Load(), want)
	}
	if on, err := r.store.Limited(e2eTopic, cody.ID); !on || err != nil {
		t.Fatalf("mark after the stop: %v %v", on, err)
	}
	if in := r.seatInfo(cody.ID); !in.Limit.Limited || !in.Limit.ResetsAt.Equal(reset) {
		t.Errorf("panel after the stop: %+v", in.Limit)
	}

	// Restarted while stopped: limited from the mark, asked at once (no
	// waiting for the reset), still not allowed.
	if err := r.mgr.Stop(e2eTopic, cody.ID); err != nil {
		t.Fatal(err)
	}
	res, s := r.start(cody.ID)
	if !res.Resumed {
		t.Fatalf("restart = %+v, want resumed", res)
	}
	if !r.seatInfo(cody.ID).Limit.Limited {
		t.Error("the restarted seat does not start limited")
	}
	started := time.Now()
	e2eUntil(t, "the first release check answered (not allowed)", func() bool {
		return asked.Load() >= 1 && r.seatInfo(cody.ID).Limit.NextCheck.After(started.Add(30*time.Minute))
	}, s.Done())
	r.waitReady(cody.ID, s)
	if !r.seatInfo(cody.ID).Limit.Limited {
		t.Fatal("released while the backend says not allowed")
	}

	// Allowed now: the next ask, due after the reset the answer named (the
	// clock jumps past it), releases.
	allowed.Store(true)
	r.skip.Store(int64(2 * time.Hour))
	lifted := r.waitPost("the release notice", func(p room.Post) bool {
		return p.FromApp && strings.Contains(p.Content, "Cody's usage limit has lifted")
	})
	e2eUntil(t, "the resume prompt reached the model", func() bool {
		return slices.ContainsFunc(r.fake.Exchanges(), func(ex fakeapi.Exchange) bool {
			return len(carrying(ex.Request, lifted.MessageID)) > 0
		})
	}, s.Done())
	if on, _ := r.store.Limited(e2eTopic, cody.ID); on {
		t.Error("the mark outlived the release")
	}
	if r.seatInfo(cody.ID).Limit.Limited {
		t.Error("still limited after the release")
	}
	for _, ex := range r.fake.Exchanges() {
		if ex.Request.Escape {
			continue // the fence refused it (docs/clis.md: raw.githubusercontent.com)
		}
		if ex.Request.Path == "/backend-api/wham/usage" && ex.Request.ModelCall {
			t.Error("a usage read counted as a model call")
		}
	}
}
