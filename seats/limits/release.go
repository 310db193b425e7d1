package limits

import "time"

// Release is a release check's answer: Allowed nil when the server
// gave no verdict; ResetsAt the reset of the window used most (the later
// one on a tie), zero when none.
type Release struct {
	Allowed  *bool
	ResetsAt time.Time
}
