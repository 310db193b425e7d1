package seats

import "encoding/json"

// ClaudeStatus is what the participant panel and the status-line footer
// read from Claude Code's status line JSON (docs/clis.md §2.9): the model,
// the effort level, and the used percentages of the context window and of
// the plan's 5-hour and 7-day windows (those two only for subscriptions).
// A percentage is nil when Claude Code did not send it — unknown, shown as
// "—", never 0 %.
type ClaudeStatus struct {
	ModelName string // model.display_name
	ModelID   string // model.id
	Effort    string // effort.level
	Context   *float64
	FiveHour  *float64
	Weekly    *float64
}

// Model is the model's display name, else its id.
func (s ClaudeStatus) Model() string {
	if s.ModelName != "" {
		return s.ModelName
	}
	return s.ModelID
}

// claudeStatusJSON is the shape Claude Code 2.1.328 sends.
type claudeStatusJSON struct {
	Model struct {
		DisplayName string `json:"display_name"`
		ID          string `json:"id"`
	} `json:"model"`
	Effort struct {
		Level string `json:"level"`
	} `json:"effort"`
	ContextWindow struct {
		UsedPercentage *float64 `json:"used_percentage"`
	} `json:"context_window"`
	RateLimits struct {
		FiveHour struct {
			UsedPercentage *float64 `json:"used_percentage"`
		} `json:"five_hour"`
		SevenDay struct {
			UsedPercentage *float64 `json:"used_percentage"`
		} `json:"seven_day"`
	} `json:"rate_limits"`
}

// ParseClaudeStatus reads Claude Code's status line JSON; ok is false when
// body is not a JSON object of that shape (every field is optional).
func ParseClaudeStatus(body []byte) (ClaudeStatus, bool) {
	var j claudeStatusJSON
	if err := json.Unmarshal(body, &j); err != nil {
		return ClaudeStatus{}, false
	}
	return ClaudeStatus{
		ModelName: j.Model.DisplayName,
		ModelID:   j.Model.ID,
		Effort:    j.Effort.Level,
		Context:   j.ContextWindow.UsedPercentage,
		FiveHour:  j.RateLimits.FiveHour.UsedPercentage,
		Weekly:    j.RateLimits.SevenDay.UsedPercentage,
	}, true
}
