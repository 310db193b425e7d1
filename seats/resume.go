package seats

import (
	"fmt"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/cli"
)

// DecideResume applies docs/design.md §9's resume rule for account a in a
// topic that recorded recordedID for it ("" = none), given what its kind
// says of that conversation (Adapter.Conversation). A known CLI resumes
// only when its conversation exists; a recorded id whose conversation is
// gone is dropped on the spot (drop) and reason says so for the status
// line. A generic CLI resumes whenever it has a resume line: where it keeps
// conversations is unknown, and unknown is not "missing", so its record is
// kept. reason is "" for a plain fresh start.
func DecideResume(a config.Account, recordedID string, c cli.Conversation) (resume, drop bool, reason string) {
	name := a.DisplayName()
	switch {
	case !a.Kind.Launches():
		return false, false, ""
	case recordedID == "":
		return false, false, ""
	case c == cli.ConversationNoResume:
		return false, false, fmt.Sprintf("%s starts fresh: it has no resume line", name)
	case c == cli.ConversationResumes:
		return true, false, fmt.Sprintf("%s resumes session %s", name, recordedID)
	}
	return false, true, fmt.Sprintf("%s starts fresh: the conversation of session %s is gone, so the record was dropped", name, recordedID)
}

// UnseenHistory reports whether a seat joins blind («トピック» #133): the
// topic's log (logSize bytes) holds posts the seat has not seen — any post,
// for a fresh seat; for a resumed one, posts after seen, the log's size when
// that seat last stopped (seenKnown false: no mark, as after a crash or from
// before marks were kept — then it is told, since reading history it knows
// costs less than missing posts). Then the seat is told
// (PULLCEPT_UNSEEN_HISTORY) that read_room_history has posts it has not seen.
func UnseenHistory(logSize int64, resumed bool, seen int64, seenKnown bool) bool {
	if logSize <= 0 {
		return false
	}
	return !resumed || !seenKnown || logSize > seen
}
