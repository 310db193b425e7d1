package cli

import "testing"

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
