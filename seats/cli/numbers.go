package cli

import (
	"math"
	"time"
)

// EpochTime is Unix seconds as a time; zero outside the years 2001–2199 (a
// value in milliseconds, or a garbage one, is no reset time).
func EpochTime(sec float64) time.Time {
	if sec < 1e9 || sec > 7e9 {
		return time.Time{}
	}
	return time.Unix(int64(sec), 0)
}

// MaxPercent bounds a used percentage taken from a CLI: a plan window can
// be over 100 % (overage), but a figure past this is no measurement and
// would only print as a long number.
const MaxPercent = 1000

// PlausiblePercent is v when it is a percentage we can show, else nil
// (unknown, "—").
func PlausiblePercent(v float64) *float64 {
	if math.IsNaN(v) || v < 0 || v > MaxPercent {
		return nil
	}
	return &v
}
