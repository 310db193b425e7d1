package tui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// What a seat is doing and what it uses, as words (docs/design.md §10,
// §11; spec «走っているアカウントが何をしているか», «セッションは自分の様子を
// ステータスラインで知らせる»). The participant panel's rows and the panes'
// titles say the same word. Everything here is a pure function of a
// SeatInfo and the time: the panel re-renders when the clock reaches the
// next change (nextTextChange), never on a busy tick.

// tone is how a seat's word is coloured: the words that mean the turn is
// not over stand out (spec: only they get a colour), the others are dim.
type tone int

const (
	toneDim    tone = iota
	toneBusy        // thinking, running a tool, subagents: ok
	toneAsk         // waiting for permission: accent, the human is asked
	toneDanger      // a failed launch
)

func (t tone) style(th *theme) lipgloss.Style {
	switch t {
	case toneBusy:
		return th.okS
	case toneAsk:
		return th.accentS
	case toneDanger:
		return th.dangerS
	}
	return th.dim
}

// oneLine is text from a seat (model, tool, warnings, ids…) made safe for
// one screen line: sanitized, line breaks as spaces.
func oneLine(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(sanitize(s), "\n", " "))
}

// cut truncates plain or styled s to w cells with "…" when it is longer.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// limited reports a seat stopped on its usage limit: the stop its CLI
// recorded (issue 16), never the percentages — a window shows 99 % or
// 100 % whether or not the seat was refused (spec #294).
func limited(s SeatInfo) bool { return s.Limited }

// limitedWord is "limited", with the reset time when it is known.
func limitedWord(e *env, s SeatInfo) string {
	if s.LimitResets.IsZero() {
		return e.tr.t(mActLimited)
	}
	return e.tr.t(mActLimitedUntil, s.LimitResets.Local().Format("15:04"))
}

// activityWord is what a running seat is doing, "" while its CLI reported
// nothing (or, for a CLI that reports nothing, in its first second):
// thinking, running a tool, waiting for permission and output arriving
// win over limited, limited wins over idle (spec #161). Output arriving
// is "thinking…" while the seat owes the room an answer (owed: noteOwed),
// as the spec says it: the two are one observation, and the address says
// more. Running subagents are said apart (subagentWord).
func activityWord(e *env, s SeatInfo, owed bool, now time.Time) (string, tone) {
	tr, a := e.tr, s.Activity
	switch {
	case a.Kind == ActivityThinking:
		return tr.t(mActThinking), toneBusy
	case a.Kind == ActivityTool:
		if tool := oneLine(a.Tool); tool != "" {
			return toolWord(tr, tool), toneBusy
		}
		return tr.t(mActToolAny), toneBusy
	case a.Kind == ActivityPermission:
		return tr.t(mActPermission), toneAsk
	case a.Kind == ActivityOutput && owed:
		return tr.t(mActThinking), toneBusy
	case a.Kind == ActivityOutput:
		// Bytes arrived in its terminal: said as such, never as work.
		return tr.t(mActOutput), toneBusy
	case limited(s):
		return limitedWord(e, s), toneDim
	case a.Kind == ActivityIdle:
		return idleWord(e, a.Since, now), toneDim
	}
	return "", toneDim
}

// roomServerPrefix starts the name of the room's own MCP server in every
// seat (seats/launch.MCPKeyPrefix, "pullcept-room-<account>-<hash>").
const roomServerPrefix = "pullcept-room"

// toolWord says which tool a seat runs: an MCP tool, which Claude Code and
// Codex name mcp__<server>__<tool>, by its own name, and the room's tools
// as the room's (issue 35: the raw "mcp__pullcept-room-…" filled the
// accounts panel's row, cut, in English on a Japanese screen).
func toolWord(tr catalog, tool string) string {
	if rest, ok := strings.CutPrefix(tool, "mcp__"); ok {
		server, name, ok := strings.Cut(rest, "__")
		switch {
		case strings.HasPrefix(server, roomServerPrefix):
			return tr.t(mActRoomTool)
		case ok && name != "":
			tool = name
		}
	}
	return tr.t(mActTool, tool)
}

// subagentWord counts a running seat's subagents, "" for none; a running
// subagent means the turn is not over (toneBusy).
func subagentWord(e *env, s SeatInfo) string {
	switch n := s.Activity.Subagents; {
	case n == 1:
		return e.tr.t(mActSubagent)
	case n > 1:
		return e.tr.t(mActSubagents, n)
	}
	return ""
}

// fullWord is the activity word with the subagents appended, as a pane's
// title says it.
func fullWord(e *env, s SeatInfo, owed bool, now time.Time) (string, tone) {
	w, tn := activityWord(e, s, owed, now)
	sub := subagentWord(e, s)
	switch {
	case sub == "":
		return w, tn
	case w == "":
		return sub, toneBusy
	case tn == toneDim:
		tn = toneBusy
	}
	return w + " · " + sub, tn
}

// idleWord is "idle", or "idle 5 min ago" once the turn ended a minute or
// more ago (minute precision: seconds are noise).
func idleWord(e *env, since, now time.Time) string {
	if since.IsZero() || now.Sub(since) < time.Minute {
		return e.tr.t(mActIdle)
	}
	return e.tr.t(mActIdleAgo, span(e, int(now.Sub(since)/time.Minute)))
}

// span says a number of minutes: "4 h 10 min", "3 d 5 h" from a day on
// (the minutes dropped), "10 min"; zero parts are left out.
func span(e *env, minutes int) string {
	tr := e.tr
	d, h, m := minutes/(24*60), minutes%(24*60)/60, minutes%60
	switch {
	case d > 0 && h > 0:
		return tr.t(mSpanDH, d, h)
	case d > 0:
		return tr.t(mSpanD, d)
	case h > 0 && m > 0:
		return tr.t(mSpanHM, h, m)
	case h > 0:
		return tr.t(mSpanH, h)
	}
	return tr.t(mSpanM, m)
}

// resetIn is the 5-hour window's reset text: the time left, minutes rounded
// up (never "0 min" while the window runs); "" when unknown or past.
func resetIn(e *env, at, now time.Time) string {
	if at.IsZero() || !at.After(now) {
		return ""
	}
	mins := int((at.Sub(now) + time.Minute - 1) / time.Minute)
	return e.tr.t(mResetsIn, span(e, mins))
}

// weekdaysJA are the weekdays as the Japanese reset text writes them.
var weekdaysJA = []string{"日", "月", "火", "水", "木", "金", "土"}

// resetAt is the weekly window's reset text: the local time with its
// weekday, "resets Mon 2:00" (hour without a leading zero); "" when
// unknown or past.
func resetAt(e *env, at, now time.Time) string {
	if at.IsZero() || !at.After(now) {
		return ""
	}
	t := at.In(e.loc)
	clock := fmt.Sprintf("%d:%02d", t.Hour(), t.Minute())
	day := t.Format("Mon")
	if e.tr.lang == LangJapanese {
		day = weekdaysJA[t.Weekday()]
	}
	return e.tr.t(mResetsAt, clock, day)
}

// heldText says how many room posts wait before the seat's terminal and
// why; "" when none wait.
func heldText(e *env, s SeatInfo) string {
	if s.Held <= 0 && s.HeldFor == HoldStuck {
		return e.tr.t(mStuckAlone) // nothing waits behind it; the post does
	}
	if s.Held <= 0 {
		return ""
	}
	switch s.HeldFor {
	case HoldUnsent:
		return e.tr.t(mHeldUnsent, s.Held)
	case HoldPermission:
		return e.tr.t(mHeldPermission, s.Held)
	case HoldAnswered:
		return e.tr.t(mHeldAnswered, s.Held)
	case HoldNotReady:
		return e.tr.t(mHeldNotReady, s.Held)
	case HoldStuck:
		return e.tr.t(mHeldStuck, s.Held)
	case HoldConfirm:
		return e.tr.t(mHeldConfirm, s.Held)
	case HoldTurn:
		return e.tr.t(mHeldTurn, s.Held)
	}
	return e.tr.t(mHeld, s.Held)
}

// usageKnown reports whether the seat's CLI ever reported usage.
func usageKnown(s SeatInfo) bool {
	return !s.UsageAt.IsZero() || oneLine(s.Model) != "" || oneLine(s.Effort) != "" ||
		s.FiveHour != nil || s.Weekly != nil || s.Context != nil
}

func pct(p *float64) string {
	if p == nil {
		return "—"
	}
	// Floored, so "100%" is shown exactly when the seat is limited.
	return fmt.Sprintf("%d%%", int(math.Floor(*p)))
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

// Usage lines (spec «参加者パネル»: "使用率は数と棒で出す").
const (
	usageIndent = 3  // the lines under a row's name
	pctW        = 4  // "100%"
	barMaxW     = 10 // the bar never grows wider
	barMinW     = 3  // narrower than this, no bar
)

// usageLines are a seat's model and effort, then its 5-hour, weekly and
// context figures, each with a bar when it fits, and the windows' reset
// texts under them, for a panel w cells wide. A seat that never reported
// shows the dashes on two lines (running) or nothing (ended); after the
// seat ended the figures are dim and marked as the last known.
func usageLines(e *env, s SeatInfo, w int, now time.Time, last bool) []string {
	th, tr := e.th, e.tr
	pad := strings.Repeat(" ", usageIndent)
	inner := w - usageIndent
	if !usageKnown(s) {
		if last {
			return nil
		}
		return []string{pad + th.dim.Render(cut("— · —", inner)),
			pad + th.dim.Render(cut(tr.t(mUsage5h)+" — "+tr.t(mUsageWeek)+" — "+tr.t(mUsageCtx)+" —", inner))}
	}
	head := orDash(oneLine(s.Model)) + " · " + orDash(oneLine(s.Effort))
	if last || earlierFigures(s) {
		head += " · " + tr.t(mUsageLast)
	}
	out := []string{pad + th.dim.Render(cut(head, inner))}
	labelW := usageLabelW(tr, w)
	figures := []struct {
		label msgKey
		p     *float64
		reset string
		at    time.Time
	}{
		{mUsage5h, s.FiveHour, resetIn(e, s.FiveHourResets, now), s.FiveHourAt},
		{mUsageWeek, s.Weekly, resetAt(e, s.WeeklyResets, now), s.WeeklyAt},
		{mUsageCtx, s.Context, "", s.ContextAt},
	}
	// Reset texts go under the bars when they fit, else as far left as
	// the row's other lines; both at one indent.
	ind := usageIndent + labelW + 1
	for _, f := range figures {
		ind = clampInt(min(ind, w-1-ansi.StringWidth(f.reset)), usageIndent, ind)
	}
	for _, f := range figures {
		out = append(out, figureLine(e, tr.t(f.label), labelW, f.p, w, last || earlierLaunch(f.at, s.Started)))
		if f.reset != "" {
			out = append(out, strings.Repeat(" ", ind)+th.dim.Render(cut(f.reset, w-ind)))
		}
	}
	return out
}

// usageLabelW is the figures' label column in a panel w cells wide: as
// wide as the widest label, unless that leaves no room for a bar while
// the others would (Japanese コンテキスト beside 5時間 at 80×24): then the
// others', and the wider label goes without its bar (figureLine).
func usageLabelW(tr catalog, w int) int {
	all, short := 0, 0
	for _, k := range []msgKey{mUsage5h, mUsageWeek, mUsageCtx} {
		lw := ansi.StringWidth(tr.t(k))
		all = max(all, lw)
		if barWidth(w, lw) >= barMinW {
			short = max(short, lw)
		}
	}
	if barWidth(w, all) < barMinW && short > 0 {
		return short
	}
	return all
}

// barWidth is the bar of a figure line w cells wide whose label column is
// labelW wide (under barMinW: none).
func barWidth(w, labelW int) int { return min(barMaxW, w-usageIndent-labelW-1-1-pctW-1) }

// figureLine is "label ███░░░░  12%": the bar only for a known figure and
// when it fits, full at 100 %, in the danger colour from 100 % on. A label
// wider than labelW is never cut: it takes the bar's room, and the figure
// stays in its column.
func figureLine(e *env, label string, labelW int, p *float64, w int, last bool) string {
	th := e.th
	lw := max(labelW, ansi.StringWidth(label))
	line := strings.Repeat(" ", usageIndent) + th.dim.Render(fit(label, lw)) + " "
	if p == nil {
		return line + th.dim.Render("—")
	}
	fill, num := th.text, th.text
	switch {
	case last:
		fill, num = th.dim, th.dim
	case *p >= 100:
		fill, num = th.dangerS, th.dangerS
	}
	figW := pctW
	if bw := barWidth(w, lw); bw >= barMinW {
		n := clampInt(int(math.Round(*p/100*float64(bw))), 0, bw)
		line += fill.Render(strings.Repeat("█", n)) + th.dim.Render(strings.Repeat("░", bw-n)) + " "
	} else if bw := barWidth(w, labelW); bw >= barMinW {
		figW += labelW + bw + 1 - lw // where the others' figures end
	}
	return line + num.Render(fitRight(pct(p), max(figW, pctW)))
}

// wrapCut wraps plain text to w cells and keeps at most n lines, the last
// kept one ending in "…" when text was left out.
func wrapCut(text string, w, n int) []string {
	lines := wrapText(text, max(w, 1))
	if len(lines) <= n {
		return lines
	}
	lines = lines[:n]
	lines[n-1] = ansi.Truncate(lines[n-1], max(w-1, 0), "") + "…"
	return lines
}

// textChange is the next moment after now when a relative text of seat s
// changes: its idle minutes, the 5-hour time left, a reset passing. ok is
// false when it shows none. usage is whether its usage lines are shown.
func textChange(s SeatInfo, now time.Time, usage bool) (next time.Time, ok bool) {
	consider := func(t time.Time) {
		if t.After(now) && (!ok || t.Before(next)) {
			next, ok = t, true
		}
	}
	a := s.Activity
	if s.State == SeatRunning && a.Kind == ActivityIdle && !limited(s) && !a.Since.IsZero() {
		el := max(now.Sub(a.Since), 0)
		consider(a.Since.Add((el/time.Minute + 1) * time.Minute))
	}
	if usage && (s.State == SeatRunning || s.State == SeatExited) {
		if r := s.FiveHourResets; !r.IsZero() && r.After(now) {
			left := (r.Sub(now) + time.Minute - 1) / time.Minute
			consider(r.Add(-(left - 1) * time.Minute))
		}
		if r := s.WeeklyResets; !r.IsZero() {
			consider(r)
		}
	}
	return next, ok
}
