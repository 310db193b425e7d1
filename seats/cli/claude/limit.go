package claude

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/limits"
)

// A Claude Code seat's usage-limit stops and recoveries, read from its
// transcript (spec «Claude 親の利用上限と手動再開（#342）»; docs/clis.md
// §2.17): a parent (isSidechain false) assistant entry with
// isApiErrorMessage true, error "rate_limit" and the plan's quotaLimits
// (or apiError "usage_limit_reached") is a stop, its reset time
// quotaLimits.resetsAt (Unix seconds; 2.1.328 writes it at the entry's root,
// older versions in its message) when it is a valid epoch; a later normal
// parent answer — a real request id and a model that is not "<synthetic>" —
// is the recovery. A subagent's entries (isSidechain true, its agentId)
// are in <session>/subagents/agent-<id>.jsonl beside the transcript: their
// own episodes.

// claudeLineMax bounds one transcript line read (spec: 4 MiB); a longer
// one is skipped, and recovery waits for the next readable normal answer.
const claudeLineMax = 4 << 20

// claudeRestoreMax bounds how much of a resumed transcript's end is read
// for its last parent event.
const claudeRestoreMax = 4 << 20

// claudeEntry is the part of a transcript line read here.
type claudeEntry struct {
	Type        string          `json:"type"`
	APIErrorSub string          `json:"apiError"`
	IsSidechain bool            `json:"isSidechain"`
	APIError    bool            `json:"isApiErrorMessage"`
	Error       json.RawMessage `json:"error"`
	RequestID   string          `json:"requestId"`
	AgentID     string          `json:"agentId"`
	QuotaLimits *claudeQuota    `json:"quotaLimits"`
	Message     *struct {
		Model       string       `json:"model"`
		QuotaLimits *claudeQuota `json:"quotaLimits"`
	} `json:"message"`
}

type claudeQuota struct {
	ResetsAt json.RawMessage `json:"resetsAt"`
}

// quotaTime reads a reset time: Unix seconds (milliseconds when it is too
// large for seconds) in the years cli.EpochTime accepts; zero otherwise (not a
// number, in the past century, absurdly far).
func quotaTime(raw json.RawMessage) time.Time {
	f, err := strconv.ParseFloat(string(raw), 64)
	if len(raw) == 0 || err != nil {
		return time.Time{}
	}
	if f > 1e12 {
		f /= 1000
	}
	return cli.EpochTime(f)
}

// claudeLimitEvent reads one transcript line: a stop, a normal answer, or
// nothing (ok false).
func claudeLimitEvent(line []byte) (limits.Event, bool) {
	var e claudeEntry
	if !bytes.Contains(line, []byte(`"assistant"`)) || json.Unmarshal(line, &e) != nil || e.Type != "assistant" {
		return limits.Event{}, false
	}
	var errName string
	_ = json.Unmarshal(e.Error, &errName)
	switch {
	case e.APIError && errName == "rate_limit" && (e.QuotaLimits != nil || e.APIErrorSub == "usage_limit_reached"):
		// The plan's limit. A 429 that is not it (a transient overload, an
		// API key's rate) carries neither (docs/clis.md §2.17): no stop.
		reset := time.Time{}
		if e.QuotaLimits != nil {
			reset = quotaTime(e.QuotaLimits.ResetsAt)
		}
		if reset.IsZero() && e.Message != nil && e.Message.QuotaLimits != nil {
			reset = quotaTime(e.Message.QuotaLimits.ResetsAt)
		}
		if e.IsSidechain {
			return limits.Event{Kind: limits.SubStop, ResetsAt: reset, Agent: e.AgentID}, true
		}
		return limits.Event{Kind: limits.Stop, ResetsAt: reset}, true
	case e.APIError || e.RequestID == "" || e.Message == nil || e.Message.Model == "" || e.Message.Model == "<synthetic>":
		return limits.Event{}, false
	case e.IsSidechain:
		return limits.Event{Kind: limits.SubNormal, Agent: e.AgentID}, true
	}
	return limits.Event{Kind: limits.Normal}, true
}

// claudeLastParent reads the end of a transcript (at most claudeRestoreMax
// bytes before size) and returns its last parent event: a launch resuming
// on an unanswered refusal starts limited.
func claudeLastParent(path string, size int64) (limits.Event, bool) {
	f, err := config.OpenRegularFollow(path)
	if err != nil {
		return limits.Event{}, false
	}
	defer f.Close()
	from := max(size-claudeRestoreMax, 0)
	b, err := io.ReadAll(io.NewSectionReader(f, from, size-from))
	if err != nil {
		return limits.Event{}, false
	}
	if from > 0 { // the first line is cut
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	var last limits.Event
	found := false
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		if e, ok := claudeLimitEvent(line); ok && (e.Kind == limits.Stop || e.Kind == limits.Normal) {
			last, found = e, true
		}
	}
	return last, found
}

// claudeTranscript is where a Claude seat's transcript is: the first of
// transcriptsOf that exists, else the first (where a fresh session's
// transcript will be written).
func claudeTranscript(configDir, workDir, sessionID, projectName string) string {
	all := transcriptsOf(configDir, workDir, sessionID, projectName)
	for _, p := range all {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return all[0]
}

// transcriptsOf are the places a Claude seat's transcript may be, in the
// order Claude Code looks: the project folder CLAUDE_CODE_PROJECT_DIR_NAME
// names (projectName, "" none), then the working directory's slug as
// written, then as its links resolve (the CLI records its physical cwd).
func transcriptsOf(configDir, workDir, sessionID, projectName string) []string {
	out := Transcripts(configDir, workDir, sessionID, projectName)
	if resolved, err := filepath.EvalSymlinks(workDir); err == nil && resolved != workDir {
		out = append(out, TranscriptPath(configDir, resolved, sessionID))
	}
	return out
}

// maxSubagentTails bounds the subagent transcripts followed per seat.
const maxSubagentTails = 32

// subagentTails follows a transcript's subagent files
// (<session>/subagents/agent-*.jsonl): the ones there at the start from
// their end (the previous run's), new ones from their beginning.
type subagentTails struct {
	dir   string
	tails map[string]*cli.Tail
}

func newSubagentTails(transcript, sessionID string) *subagentTails {
	st := &subagentTails{dir: filepath.Join(filepath.Dir(transcript), sessionID, "subagents"), tails: map[string]*cli.Tail{}}
	for _, path := range st.list() {
		var size int64
		if fi, err := os.Stat(path); err == nil {
			size = fi.Size()
		}
		st.add(path, size)
	}
	return st
}

func (st *subagentTails) list() []string {
	paths, _ := filepath.Glob(filepath.Join(st.dir, "agent-*.jsonl"))
	return paths
}

func (st *subagentTails) add(path string, offset int64) {
	if len(st.tails) >= maxSubagentTails {
		return
	}
	t := cli.NewTail(path, offset)
	t.LineMax = claudeLineMax
	st.tails[path] = t
}

// poll reads what every subagent file appended; it returns the lines read.
func (st *subagentTails) poll(line func([]byte)) int {
	for _, path := range st.list() {
		if _, ok := st.tails[path]; !ok {
			st.add(path, 0)
		}
	}
	n := 0
	for _, t := range st.tails {
		k, _ := t.Poll(line)
		n += k
	}
	return n
}
