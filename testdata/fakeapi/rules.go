package fakeapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/pullcept/pullcept/room"
	"github.com/pullcept/pullcept/room/textcut"
)

// Rules is the fake model's rule-based mode: a script kept as data (a JSON
// file, `fakemodel -script FILE`; `make demo` loads testdata/demo/script.json)
// instead of code, for showing Pullcept to a person (docs/design.md §13 "The
// demo"). Unlike Script, which answers every post so that tests can count on
// it, Rules behaves like a model in a room: it answers only a post that is
// for its seat, and the words of that post pick what it does — say
// something, ask for a tool (a permission card in Claude Code's default
// mode), or restart its own seat through the session tools (§15).
//
// Decide is stateless, like Script: every request is judged from its own
// body, so one Rules serves every seat of one Server.
type Rules struct {
	// Comment is for people reading the script.
	Comment string `json:"comment,omitempty"`
	// Silent ends the turn, without a tool call, when the newest post is
	// not for this seat (another seat's small talk, a notice, a post to
	// someone else). Placeholders as in Step.Say.
	Silent string `json:"silent"`
	// Failed is said to the room after a rule's last step failed (a tool
	// or a session operation answered with an error) when no step of the
	// rule says something after it; "" says nothing.
	Failed string `json:"failed,omitempty"`
	// Final closes a turn once every step is done (shown in the seat's
	// terminal only). "" means "Posted to the room."
	Final string `json:"final,omitempty"`
	// Rules are tried in order against the post; the first whose Match
	// holds wins. A rule without Match words matches every post: put it
	// last.
	Rules []Rule `json:"rules"`
}

// Rule is what the model does with a post that is for its seat.
type Rule struct {
	// Name is for people reading the script and the fake's log.
	Name string `json:"name,omitempty"`
	// Match holds lower-case words; the rule applies when the post's
	// body holds any of them as a word. None: every post.
	Match []string `json:"match,omitempty"`
	// Steps run in order within one turn.
	Steps []Step `json:"steps"`
}

// Step is one action of a Rule: exactly one of Say, Tool and Session.
type Step struct {
	// Say is posted to the room with say_to_room, addressed to the post's
	// sender. Placeholders: {from} the sender, {me} this seat's name,
	// {body} the post's first line, {result} the output of the rule's last
	// tool step (cut to 20 lines).
	Say string `json:"say,omitempty"`
	// IfFailed replaces Say when the tool step before it failed (the human
	// denied it on the card, the command failed).
	IfFailed string `json:"if_failed,omitempty"`
	// Tool is a tool call, per wire format ("anthropic" for Claude Code,
	// "openai" for Codex). A step with no entry for the format asking is
	// left out of that model's turn.
	Tool map[API]RuleTool `json:"tool,omitempty"`
	// Session is a session operation on this seat; only "restart" (the
	// model lists the sessions, finds its own seat and asks for its
	// restart with control_account_session). A refused list or operation,
	// or a list without this seat running, fails the step.
	Session string `json:"session,omitempty"`
}

// RuleTool is one tool call of a Step: the tool's name as the CLI offers
// it and its arguments.
type RuleTool struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
}

// SessionRestart is the one session operation a Step may name.
const SessionRestart = "restart"

// Bounds of a rules file and of what a turn quotes.
const (
	maxRulesFile    = 1 << 20
	maxResultLines  = 20
	maxResultBytes  = 2000
	maxRuleSearches = 4
	opIDPrefix      = "demo-restart-"
)

// textSilent is Rules.Silent when the script leaves it empty.
const textSilent = "Not for me: {from} was talking to someone else."

// LoadRules reads and checks a rules file (ParseRules).
func LoadRules(path string) (Rules, error) {
	f, err := os.Open(path)
	if err != nil {
		return Rules{}, fmt.Errorf("rules: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRulesFile+1))
	if err != nil {
		return Rules{}, fmt.Errorf("rules: %s: %w", path, err)
	}
	if len(b) > maxRulesFile {
		return Rules{}, fmt.Errorf("rules: %s is over %d bytes: %w", path, maxRulesFile, ErrBadOptions)
	}
	rs, err := ParseRules(b)
	if err != nil {
		return Rules{}, fmt.Errorf("%s: %w", path, err)
	}
	return rs, nil
}

// ParseRules decodes a rules script. Unknown keys are refused (a typo
// would otherwise silently change what the model does), and so is a step
// that is not exactly one of say, tool and session, a session other than
// "restart", a tool without a name or with arguments that are not an
// object, a match word with upper case or blanks, and a script with no rule.
// Errors wrap ErrBadOptions.
func ParseRules(b []byte) (Rules, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var rs Rules
	if err := dec.Decode(&rs); err != nil {
		return Rules{}, fmt.Errorf("rules: %v: %w", err, ErrBadOptions)
	}
	if dec.More() {
		return Rules{}, fmt.Errorf("rules: more than one JSON value: %w", ErrBadOptions)
	}
	if len(rs.Rules) == 0 {
		return Rules{}, fmt.Errorf("rules: no rule: %w", ErrBadOptions)
	}
	for i, r := range rs.Rules {
		if err := r.check(); err != nil {
			return Rules{}, fmt.Errorf("rules: rule %d (%s): %v: %w", i+1, r.Name, err, ErrBadOptions)
		}
	}
	return rs, nil
}

func (r Rule) check() error {
	if len(r.Steps) == 0 {
		return errors.New("no steps")
	}
	for _, w := range r.Match {
		if w == "" || w != strings.ToLower(w) || strings.IndexFunc(w, unicode.IsSpace) >= 0 {
			return fmt.Errorf("match word %q: want one lower-case word", w)
		}
	}
	for i, s := range r.Steps {
		n := 0
		for _, set := range []bool{s.Say != "", len(s.Tool) > 0, s.Session != ""} {
			if set {
				n++
			}
		}
		switch {
		case n != 1:
			return fmt.Errorf("step %d: want exactly one of say, tool, session", i+1)
		case s.IfFailed != "" && s.Say == "":
			return fmt.Errorf("step %d: if_failed goes with say", i+1)
		case s.Session != "" && s.Session != SessionRestart:
			return fmt.Errorf("step %d: session %q: only %q", i+1, s.Session, SessionRestart)
		}
		for api, t := range s.Tool {
			if api != Anthropic && api != OpenAI {
				return fmt.Errorf("step %d: tool for %q: want %q or %q", i+1, api, Anthropic, OpenAI)
			}
			if t.Name == "" {
				return fmt.Errorf("step %d: tool without a name", i+1)
			}
			if len(t.Input) > 0 && !bytes.HasPrefix(bytes.TrimSpace(t.Input), []byte("{")) {
				return fmt.Errorf("step %d: tool input is not an object", i+1)
			}
		}
	}
	return nil
}

// Decide answers one model call:
//
//  1. a structured-output side request (a title) → JSON that fits it;
//  2. nothing new (no post, no tool result) → a short text;
//  3. no new post for this seat (turnPost) → Silent, no tool call;
//  4. else the first rule matching that post, at the step this turn has
//     reached: a floor rejection of say_to_room → the kept draft again (as
//     Script.Resend); a session list → control_account_session restarting
//     this seat; every step done → Final (or Failed first: a tool, a list
//     or an operation that answered with an error is said in the room).
func (rs Rules) Decide(r *Request) Reply {
	if len(r.OutputSchema) > 0 {
		return TextReply(exampleJSON(r.OutputSchema))
	}
	news := r.NewPosts()
	if len(news) == 0 && len(r.NewResults()) == 0 {
		return TextReply(textPlain)
	}
	post, ok := turnPost(r, news)
	if !ok {
		if len(news) == 0 {
			return TextReply(textPlain)
		}
		return TextReply(fill(or(rs.Silent, textSilent), news[len(news)-1], "", ""))
	}
	steps := rs.pick(post.Body).stepsFor(r.API)
	t := walkTurn(r, post)
	if t.last != nil && t.last.Call != nil {
		switch c := t.last.Call; {
		case c.IsSayToRoom() && DefaultRejected.MatchString(t.last.Text):
			return resend(r, t)
		case isRoomTool(c.Tool, room.ToolListSessions) && t.op != nil:
			return callRoom(r, room.ToolControlSession, *t.op, t.searches)
		}
	}
	if t.done < len(steps) {
		return step(r, post, steps, t)
	}
	if t.done == len(steps) && t.failed && rs.Failed != "" {
		return callRoom(r, SayToRoom, sayArgs(post, fill(rs.Failed, post, seatName(r, post), t.output)), t.searches)
	}
	return TextReply(or(rs.Final, textPosted))
}

// turnPost is the post this turn answers: the newest post for this seat in
// the new input (several may arrive at once: a steer, posts typed while
// the CLI was busy); else, when the input holds only tool results (and
// maybe small talk folded into them), the newest post for this seat before
// it, whose turn goes on.
func turnPost(r *Request, news []TaggedPost) (TaggedPost, bool) {
	for i := len(news) - 1; i >= 0; i-- {
		if forThisSeat(news[i]) {
			return news[i], true
		}
	}
	if len(r.NewResults()) == 0 {
		return TaggedPost{}, false
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		ps := messagePosts(r.Messages, i)
		for j := len(ps) - 1; j >= 0; j-- {
			if forThisSeat(ps[j]) {
				return ps[j], true
			}
		}
	}
	return TaggedPost{}, false
}

// forThisSeat reports whether a post typed into a seat is for it: its tag
// names the seat among the addressees ("you" is in "to"), or it comes from
// the human (role admin) to the whole room. Another seat's post to the
// whole room is small talk; a notice (role app, mcp) is information.
func forThisSeat(p TaggedPost) bool {
	if len(p.Tag.To) == 0 {
		return p.Tag.Role == "admin"
	}
	return p.Tag.You != "" && slices.ContainsFunc(p.Tag.To, func(n string) bool { return strings.EqualFold(n, p.Tag.You) })
}

// pick returns the first rule whose Match holds for body.
func (rs Rules) pick(body string) Rule {
	words := strings.FieldsFunc(strings.ToLower(body), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, rule := range rs.Rules {
		if len(rule.Match) == 0 || slices.ContainsFunc(rule.Match, func(w string) bool { return slices.Contains(words, w) }) {
			return rule
		}
	}
	return Rule{}
}

// stepsFor leaves out the tool steps that have no call for api.
func (r Rule) stepsFor(api API) []Step {
	var out []Step
	for _, s := range r.Steps {
		if len(s.Tool) > 0 {
			if _, ok := s.Tool[api]; !ok {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// turnState is what the model did since the post that opened the turn.
type turnState struct {
	done     int         // steps finished
	resends  int         // say_to_room calls the floor rejected
	searches int         // tool-search steps
	failed   bool        // the last finished step answered with an error
	output   string      // the last step's tool result ({result})
	last     *ToolResult // the newest tool result of the turn
	// op restarts this seat, read from the newest session list when it is
	// the turn's last result and names the seat's running launch.
	op *room.SessionOperation
}

// walkTurn reads the tool results after the post's message, in order. A
// step is finished by its call's result: say_to_room delivered, the
// tool's output, control_account_session's answer. Tool searches and a
// readable session list are steps on the way; a list the seat cannot
// restart itself from finishes the session step as failed; a rejected
// say_to_room is retried.
func walkTurn(r *Request, post TaggedPost) turnState {
	var t turnState
	for _, m := range r.Messages[post.Message+1:] {
		for i := range m.Results {
			res := &m.Results[i]
			t.last, t.op = res, nil
			c := res.Call
			switch {
			case len(res.Loaded) > 0 || c != nil && c.Search:
				t.searches++
			case c == nil:
			case isRoomTool(c.Tool, room.ToolListSessions):
				op, err := restartOp(r, post, res)
				if err != nil {
					t.done++
					t.failed, t.output = true, err.Error()
					break
				}
				t.op = &op
			case c.IsSayToRoom() && DefaultRejected.MatchString(res.Text):
				t.resends++
			case c.IsSayToRoom():
				t.done++
				t.failed = false
			case isRoomTool(c.Tool, room.ToolControlSession):
				t.done++
				t.output = toolOutput(res.Text)
				t.failed = res.IsError || refused(t.output)
			default:
				t.done++
				t.failed = res.IsError || codexExitFailed(res.Text)
				t.output = res.Text
			}
		}
	}
	return t
}

// step takes steps[t.done].
func step(r *Request, post TaggedPost, steps []Step, t turnState) Reply {
	s := steps[t.done]
	switch {
	case s.Session != "":
		return callRoom(r, room.ToolListSessions, nil, t.searches)
	case len(s.Tool) > 0:
		rt := s.Tool[r.API]
		for _, tool := range r.Tools {
			if tool.Namespace == "" && tool.Name == rt.Name {
				input := rt.Input
				if len(input) == 0 {
					input = json.RawMessage("{}")
				}
				return Reply{Call: &ToolCall{Tool: tool, Input: input}}
			}
		}
		return TextReply("I wanted to use " + rt.Name + ", but this CLI does not offer it.")
	}
	text := s.Say
	if t.failed && s.IfFailed != "" {
		text = s.IfFailed
	}
	return callRoom(r, SayToRoom, sayArgs(post, fill(text, post, seatName(r, post), t.output)), t.searches)
}

// sayArgs answers post's sender with content.
func sayArgs(post TaggedPost, content string) SayArgs {
	return SayArgs{Content: content, To: []string{post.Tag.From}, LastSeen: post.Tag.MessageID}
}

// resend sends the kept draft again after a floor rejection, with
// last_seen the newest post the rejection listed (as Script.Resend).
func resend(r *Request, t turnState) Reply {
	say, ok := r.SayTool()
	if !ok || t.resends > defaultMaxResends {
		return TextReply(textNotTaken)
	}
	args := SayArgs{}
	if ids := (Script{}).messageIDs(t.last.Text); len(ids) > 0 {
		args.LastSeen = ids[len(ids)-1]
	}
	return CallTool(say, args)
}

// restartOp reads list_account_sessions' answer, finds this seat (its
// account by name, its running launch) and makes the operation restarting
// it. The operation id comes from the post, so a retried turn asks the
// same operation again, which the ledger answers without running it twice.
// The error is what the seat says in the room: the list's refusal, or that
// the list does not name it.
func restartOp(r *Request, post TaggedPost, res *ToolResult) (room.SessionOperation, error) {
	text := toolOutput(res.Text)
	var list room.SessionList
	if err := json.Unmarshal([]byte(text), &list); err != nil || res.IsError {
		return room.SessionOperation{}, errors.New(textcut.Bytes(text, 200))
	}
	me := seatName(r, post)
	op := room.SessionOperation{OperationID: opIDPrefix + opIDSafe(post.Tag.MessageID), Action: room.ActionRestart}
	for _, a := range list.Accounts {
		if me != "" && strings.EqualFold(a.Name, me) {
			op.AccountID = a.AccountID
		}
	}
	for _, s := range list.Seats {
		if op.AccountID != "" && s.AccountID == op.AccountID && s.State == "running" {
			op.TopicID, op.ExpectedPtyID = s.TopicID, s.PtyID
			break
		}
	}
	if op.TopicID == "" {
		return room.SessionOperation{}, fmt.Errorf("the session list names no running seat of mine (%s)", me)
	}
	return op, nil
}

// instructionsName finds the seat's name in the room's instructions
// (sidecar.Instructions) wherever the CLI put them.
var instructionsName = regexp.MustCompile(`You are in a Pullcept chat room as (.+?), with a human`)

// seatName is this seat's name: the tag's "you", else the name the room's
// instructions gave it (a post to the whole room has no "you").
func seatName(r *Request, post TaggedPost) string {
	if post.Tag.You != "" {
		return post.Tag.You
	}
	texts := slices.Clone(r.System)
	for _, m := range r.Messages {
		texts = append(texts, m.Texts...)
	}
	for _, s := range texts {
		if m := instructionsName.FindStringSubmatch(s); m != nil {
			return m[1]
		}
	}
	return ""
}

// opIDSafe keeps the characters an operation id may hold (docs/design.md
// §15 "The ledger").
func opIDSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._:-", r)) {
			return r
		}
		return -1
	}, s)
	return textcut.Bytes(s, 100)
}

// isRoomTool reports whether t is the room's tool name (the CLIs put
// their MCP namespace in front: "mcp__<key>__name", or Codex's namespace).
func isRoomTool(t Tool, name string) bool {
	n := t.FullName()
	return n == name || strings.HasSuffix(n, "__"+name)
}

// callRoom calls the room tool name, first loading it through tool search
// when the CLI defers it (Claude names it in its deferred list; Codex
// defers whole namespaces, so it is searched by name).
func callRoom(r *Request, name string, args any, searches int) Reply {
	for _, t := range r.Tools {
		if isRoomTool(t, name) {
			return CallTool(t, args)
		}
	}
	if r.ToolSearch && searches < maxRuleSearches {
		if r.API == OpenAI {
			return SearchReply(OpenAI, name)
		}
		for _, d := range r.Deferred {
			if strings.HasSuffix(d, "__"+name) {
				return SearchReply(Anthropic, d)
			}
		}
	}
	return TextReply("I cannot answer the room: " + name + " is not available.")
}

// fill replaces the placeholders of a Step's text.
func fill(text string, post TaggedPost, me, result string) string {
	return strings.NewReplacer(
		"{from}", post.Tag.From,
		"{me}", me,
		"{body}", post.FirstLine(),
		"{result}", cutResult(result),
	).Replace(text)
}

// codexHeader is what Codex 0.169.0 puts above a tool's own output for
// the model: exec_command's "Chunk ID: …\nWall time: … seconds\nProcess
// exited with code 0\nOutput:\n", and for an MCP tool a text part of its
// own, "Wall time: … seconds\nOutput:", before the tool's parts (joined
// with "\n" in ToolResult.Text). Claude Code passes a tool's text as it
// is.
var codexHeader = regexp.MustCompile(`\A(?:Chunk ID: [^\n]*\n)?Wall time: [^\n]*\n(?:[^\n]*\n){0,4}?Output:(?:\n|\z)`)

// codexAborted is what a resumed Codex 0.169.0 has as the answer to a
// call its process ended during: a seat's own restart ends the process
// that asked for it.
const codexAborted = "aborted"

// refused reports a control_account_session answer that is a refusal:
// Codex marks no MCP error for the model, so an answer that is neither
// the operation's record nor a call cut short by the restart it asked for.
func refused(out string) bool {
	var rec room.SessionRecord
	if strings.TrimSpace(out) == codexAborted {
		return false
	}
	return json.Unmarshal([]byte(out), &rec) != nil || rec.OperationID == ""
}

// codexExit is the exit line of Codex's exec_command header: Codex marks
// no failed command for the model otherwise.
var codexExit = regexp.MustCompile(`\A(?:Chunk ID: [^\n]*\n)?Wall time: [^\n]*\nProcess exited with code (-?\d+)\n`)

// codexExitFailed reports a command Codex ran that exited with a code
// other than 0.
func codexExitFailed(s string) bool {
	m := codexExit.FindStringSubmatch(s)
	return m != nil && m[1] != "0"
}

// toolOutput is a tool result's text without the CLI's header: what the
// tool itself answered.
func toolOutput(s string) string {
	if loc := codexHeader.FindStringIndex(s); loc != nil {
		return s[loc[1]:]
	}
	return s
}

// cutResult trims a tool's output to what a post quotes: the tool's own
// output, at most maxResultLines lines and maxResultBytes bytes.
func cutResult(s string) string {
	s = strings.TrimSpace(toolOutput(s))
	lines := strings.Split(s, "\n")
	if len(lines) > maxResultLines {
		lines = append(lines[:maxResultLines], "…")
	}
	return textcut.Bytes(strings.Join(lines, "\n"), maxResultBytes)
}

func or(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
