package cli

import (
	"testing"
	"time"
)

// TestAnswersDialog: a lone Enter, Esc, digit, y or n answers; text and
// sequences do not.
func TestAnswersDialog(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"\r", "\x1b", "1", "3", "y", "N"} {
		if !answersDialog([]byte(k)) {
			t.Errorf("%q does not answer the dialog", k)
		}
	}
	for _, k := range []string{"", "a", "yes", "\x1b[A", "\x03", " "} {
		if answersDialog([]byte(k)) {
			t.Errorf("%q answers the dialog", k)
		}
	}
}

// TestUsageReceived: a report stamps its time on the figures it carries
// only; one it lacks keeps its own received time (issue 34 item 16).
func TestUsageReceived(t *testing.T) {
	t.Parallel()
	before := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	now := before.Add(time.Hour)
	five := 12.0
	u := Usage{FiveHour: &five, ContextAt: before, WeeklyAt: before}
	u.Received(now)
	if !u.At.Equal(now) || !u.FiveHourAt.Equal(now) || !u.ContextAt.Equal(before) || !u.WeeklyAt.Equal(before) {
		t.Errorf("after Received: at %v, 5h %v, ctx %v, week %v", u.At, u.FiveHourAt, u.ContextAt, u.WeeklyAt)
	}
}
