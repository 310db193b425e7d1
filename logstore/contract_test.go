package logstore

// roomLog mirrors room.Log (room/types.go), the interface the room calls
// (docs/design.md §2, §8). It is copied rather than imported because room imports
// this package; the assertion below breaks the build if *Store drifts.
type roomLog interface {
	Append(topicID string, rec Record) error
	NoteFirstPost(topicID string, rec Record) error
	Page(topicID, before string, limit int) (recs []Record, hasMore bool, err error)
	SaveBody(topicID, messageID, body string) (name, path string, err error)
	DropBody(topicID, name string) error
	BodyPath(topicID, name string) string
}

var _ roomLog = (*Store)(nil)
