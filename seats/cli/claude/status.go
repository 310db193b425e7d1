package claude

import (
	"encoding/json"
	"time"

	"github.com/pullcept/pullcept/seats/cli"
)

// Status is what the participant panel and the status-line footer
// read from Claude Code's status line JSON (docs/clis.md §2.9): the model,
// the effort level, and the used percentages of the context window and of
// the plan's 5-hour and 7-day windows (those two only for subscriptions).
// A percentage is nil when Claude Code did not send it — unknown, shown as
// "—", never 0 %.
type Status struct {
	ModelName string // model.display_name
	ModelID   string // model.id
	Effort    string // effort.level
	Context   *float64
	FiveHour  *float64
	Weekly    *float64
	// FiveHourResets and WeeklyResets are when the two windows start over
	// (rate_limits.*.resets_at, Unix seconds); zero when not sent.
	FiveHourResets time.Time
	WeeklyResets   time.Time
}

// Model is the model's display name, else its id.
func (s Status) Model() string {
	if s.ModelName != "" {
		return s.ModelName
	}
	return s.ModelID
}

// ParseStatus reads Claude Code's status line JSON (the shape of
// 2.1.328: model.display_name, model.id, effort.level,
// context_window.used_percentage, rate_limits.five_hour.used_percentage,
// rate_limits.seven_day.used_percentage). Every field is read on its own: a
// field that is missing or of another type stays unknown and the others
// still count, so a CLI that changes one field does not blank the panel.
// ok is false only when body is not a JSON object.
func ParseStatus(body []byte) (Status, bool) {
	var top jsonObject
	if json.Unmarshal(body, &top) != nil || top == nil {
		return Status{}, false
	}
	model, effort := top.object("model"), top.object("effort")
	limits := top.object("rate_limits")
	five, week := limits.object("five_hour"), limits.object("seven_day")
	return Status{
		ModelName:      model.str("display_name"),
		ModelID:        model.str("id"),
		Effort:         effort.str("level"),
		Context:        top.object("context_window").percent("used_percentage"),
		FiveHour:       five.percent("used_percentage"),
		Weekly:         week.percent("used_percentage"),
		FiveHourResets: five.epoch("resets_at"),
		WeeklyResets:   week.epoch("resets_at"),
	}, true
}

// jsonObject is one level of a JSON object, each value read on demand.
type jsonObject map[string]json.RawMessage

// object is the object at key, nil when absent or not an object.
func (o jsonObject) object(key string) jsonObject {
	var v jsonObject
	if raw, ok := o[key]; ok && json.Unmarshal(raw, &v) == nil {
		return v
	}
	return nil
}

// str is the string at key, "" when absent or not a string.
func (o jsonObject) str(key string) string {
	var v string
	if raw, ok := o[key]; ok && json.Unmarshal(raw, &v) == nil {
		return v
	}
	return ""
}

// epoch is the Unix time in seconds at key; zero when absent, not a
// number, or not a plausible time (cli.EpochTime).
func (o jsonObject) epoch(key string) time.Time {
	var sec float64
	if raw, ok := o[key]; ok && json.Unmarshal(raw, &sec) == nil {
		return cli.EpochTime(sec)
	}
	return time.Time{}
}

// percent is the number at key, nil when absent, not a number or not a
// plausible percentage.
func (o jsonObject) percent(key string) *float64 {
	var v float64
	if raw, ok := o[key]; ok && json.Unmarshal(raw, &v) == nil {
		return cli.PlausiblePercent(v)
	}
	return nil
}
