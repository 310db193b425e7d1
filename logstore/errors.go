package logstore

import (
	"errors"

	"github.com/pullcept/pullcept/config"
)

// Sentinel errors; callers compare with errors.Is. Returned errors wrap them
// with the offending value and the operation.
var (
	// ErrBadTopicID: a topic id that is not a safe file name stem (docs/design.md §8).
	// Ids are 1–100 bytes of ASCII letters, digits, '-', '_' and '.', neither
	// starting nor ending with '.', and never a Windows device name.
	ErrBadTopicID = errors.New("bad topic id")
	// ErrUnknownTopic: the topic has neither a log file nor an index entry.
	ErrUnknownTopic = errors.New("unknown topic")
	// ErrTopicDeleted: the topic was deleted during this run; writes to it are
	// refused so that a late post cannot bring it back as an orphan file.
	ErrTopicDeleted = errors.New("topic was deleted")
	// ErrUnknownMessage: Page was asked for posts before a message_id that is
	// not in the topic's log.
	ErrUnknownMessage = errors.New("unknown message_id")
	// ErrBadLimit: Page or Tail was asked for fewer than one record.
	ErrBadLimit = errors.New("limit must be at least 1")
	// ErrBadRecord: Append was handed a record without message_id (it would be
	// unreadable) or one whose line exceeds MaxLineBytes.
	ErrBadRecord = errors.New("bad record")
	// ErrBadTopicName: Rename was handed a name that is empty after trimming.
	ErrBadTopicName = errors.New("bad topic name")
	// ErrBadSession: RecordSession was handed an empty account or session id.
	ErrBadSession = errors.New("bad session record")
	// ErrBadAttachmentName: an attachment name that could leave
	// attachments/<topic>/ or that Windows cannot store as written.
	ErrBadAttachmentName = errors.New("bad attachment name")
	// ErrAttachmentLink: a symbolic link, junction or other non-regular entry
	// sits where an attachment (or its folder) would be.
	ErrAttachmentLink = errors.New("attachment path is a link")
	// ErrAttachmentOutside: ResolveAttachment was handed a path that does not
	// resolve to a regular file directly inside attachments/<topic>/.
	ErrAttachmentOutside = errors.New("path is not an attachment of any topic")
	// ErrNotAFile: a file picked to attach, or a topic log, is a folder,
	// device, FIFO or socket, not a regular file. It is config's sentinel:
	// logs are opened through config.OpenRegular.
	ErrNotAFile = config.ErrNotRegular
	// ErrAttachmentTooLarge: a file picked to attach holds more than
	// MaxAttachmentBytes.
	ErrAttachmentTooLarge = errors.New("file too large to attach")
	// ErrIndexUnreadable: index.json could not be parsed. It was set aside
	// (not deleted) and the topic list is rebuilt from the directory; reported
	// through TakeWarnings. Open fails with it only when the file cannot be
	// set aside (a later index write would otherwise overwrite it).
	ErrIndexUnreadable = errors.New("topic index unreadable")
	// ErrBadIndexEntry: one entry of index.json has the wrong shape. It is kept
	// verbatim on rewrite and otherwise ignored. Reported through TakeWarnings.
	ErrBadIndexEntry = errors.New("bad topic index entry")
	// ErrLegacyMigration: the legacy logs/main.jsonl could not be moved into a
	// topic; it is left in place and retried on the next Open. Reported
	// through TakeWarnings.
	ErrLegacyMigration = errors.New("legacy log migration failed")
	// ErrClosed: the Store was closed.
	ErrClosed = errors.New("log store closed")
)
