package room

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/pullcept/pullcept/logstore"
	"github.com/pullcept/pullcept/room/pubsub"
)

// HubOptions configures NewHub. Every field is optional.
type HubOptions struct {
	// Log is the topic log (docs/design.md §8); nil keeps no log (tests), and History
	// then reads the in-memory floor window. *logstore.Store implements it.
	Log Log
	// Terminals types posts into seats (docs/design.md §5); nil types nothing.
	Terminals Terminals
	// Accounts gives the kind of an account named in hello (docs/design.md §4); nil
	// makes every account unknown, so socket posts get role unknown.
	Accounts Accounts
	// Identities names the accounts (docs/design.md §6 "Names"): a
	// connection whose hello names a known account sits under that
	// account's current name, full name and hue, whatever its hello says,
	// and AccountChanged renames its connections in every room. nil keeps
	// the hello's names (tests).
	Identities Identities
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// NewID makes message ids for posts that came without one
	// (nil: uuid.NewString, a UUID v4).
	NewID func() string
	// Logger receives debug/warn lines (nil: discarded). The room never
	// prints to stdout/stderr (the TUI owns the terminal).
	Logger *slog.Logger
	// Brake is how many AI posts in a row, with no post from the human,
	// make a room stop typing AI posts into its seats (docs/design.md §2
	// "The brake"; config.json "brake"). 0 turns the brake off; negative
	// is refused by NewHub. Hub.SetBrake changes it while the hub runs.
	Brake int
	// BrakeNotice words the app notice the brake posts after n AI posts
	// in a row (the app: the human's language and release key); nil is
	// BrakeNotice's English. Called with the room lock held: it must not
	// call the hub.
	BrakeNotice func(n int) string
	// PermissionWait is how long a PermissionRequest hook is held for the
	// human's answer on its card (permission.go; config.json
	// "permission_wait"; 0: DefaultPermissionWait, 180 s; over
	// MaxPermissionWait or negative is refused by NewHub). Tests make it
	// short. Hub.SetPermissionWait changes it while the hub runs.
	PermissionWait time.Duration
}

// Hub holds every open room (one per topic), the UI's admin identity, the
// subscribers (docs/design.md §2–§4, §6). All of
// its methods are safe for concurrent use. It runs no goroutine of its own
// besides the Subscriptions' pumps; Deliver runs in the caller's goroutine.
type Hub struct {
	log      Log
	terms    Terminals
	accounts Accounts
	idents   Identities
	now      func() time.Time
	newID    func() string
	logger   *slog.Logger
	brake    atomic.Int64 // HubOptions.Brake, then SetBrake's; 0: off (brake.go)
	// brakeText is HubOptions.BrakeNotice (nil: English).
	brakeText func(int) string

	nextOrigin  atomic.Uint64 // origins are > 0; 0 marks notices (app, mcp)
	adminOrigin uint64        // the UI's one in-process connection, in every room

	// idMu orders the reading of an account's identity with seating it
	// (Hello, SetAdmin) and with renaming its seats (AccountChanged), so a
	// hello that read a name just before a save cannot seat it after the
	// save's rename went by. Taken before Conn.mu; Identities is called
	// under it (config.Book.mu, a leaf), never under Hub.mu or a room lock.
	idMu sync.Mutex

	mu     sync.Mutex // guards rooms, admin, closed
	rooms  map[string]*roomState
	admin  *Hello
	closed bool

	// events fans every event out to the subscribers, must-deliver and in
	// one order (room/pubsub).
	events *pubsub.Broker[Event]

	ops sessionOpsHolder // SetSessionOps (sessionops.go)

	// asks are the permission requests held open for the human's answer
	// (permission.go); askWait is how long each new one is held
	// (HubOptions.PermissionWait, then SetPermissionWait's; nanoseconds).
	asks    askDesk
	askWait atomic.Int64
}

// roomState is one topic's room: roster, floor and order. Guarded by mu.
type roomState struct {
	topic string

	mu       sync.Mutex
	closeErr error // ErrNoRoom after CloseRoom, ErrClosed after Hub.Close
	members  []*member
	floor    floor
	seq      uint64    // order of the last delivered post (1, 2, …)
	logEmpty bool      // the topic log had no post when the room opened, nor since
	brake    brake     // AI posts in a row and whether they are held back (brake.go)
	ids      recentIDs // delivered message ids (msgids.go)
}

// member is one connection's seat in a room's roster (docs/design.md §0).
type member struct {
	origin  uint64
	hello   Hello // Name trimmed; Hue is the room's own copy
	role    Role
	joinSeq uint64 // room order when it took its seat; earlier posts never count against it
	local   bool   // the UI's own connection
	launch  string // the seat launch of its token (SeatBinding.Launch); "" when none
	// tell hands the connection an identity frame (Conn.tell); nil for
	// in-process connections. Never blocks: called under the room's lock.
	tell func(IdentityFrame)
}

// told tells m's connection its names as the room has them now.
func (m *member) told() {
	if m.tell != nil {
		m.tell(IdentityFrame{Type: FrameIdentity, Name: m.hello.Name, FullName: m.hello.FullName})
	}
}

// senderKind is the entry point a post came through; it alone sets the role
// (docs/design.md §4).
type senderKind int

const (
	sendUI senderKind = iota
	sendSocket
	sendApp // Pullcept's own notices: role app, never judged (brake.go)
	sendMCP // a local MCP server's notices: role mcp, never judged (mcpnotice.go)
)

// sender is who hands a draft to deliver.
type sender struct {
	kind   senderKind
	origin uint64   // sendUI, sendSocket; 0 for the notices
	skip   []string // sendApp: accounts whose terminals do not get the notice
	as     Post     // sendMCP: the notice's speaker, full name, account and hue
}

// NewHub makes a hub with no open room. It refuses a negative
// HubOptions.Brake (ErrBadBrake) and a PermissionWait that is negative or
// over MaxPermissionWait (ErrBadPermissionWait).
func NewHub(opts HubOptions) (*Hub, error) {
	if opts.Brake < 0 {
		return nil, fmt.Errorf("new hub: brake %d: %w", opts.Brake, ErrBadBrake)
	}
	if opts.PermissionWait < 0 || opts.PermissionWait > MaxPermissionWait {
		return nil, fmt.Errorf("new hub: permission wait %s: %w", opts.PermissionWait, ErrBadPermissionWait)
	}
	h := &Hub{
		log:      opts.Log,
		terms:    opts.Terminals,
		accounts: opts.Accounts,
		idents:   opts.Identities,
		now:      opts.Now,
		newID:    opts.NewID,
		logger:   opts.Logger,
		rooms:    make(map[string]*roomState),

		brakeText: opts.BrakeNotice,
	}
	wait := opts.PermissionWait
	if wait == 0 {
		wait = DefaultPermissionWait
	}
	h.askWait.Store(int64(wait))
	h.brake.Store(int64(opts.Brake))
	if h.now == nil {
		h.now = time.Now
	}
	if h.newID == nil {
		h.newID = uuid.NewString
	}
	if h.logger == nil {
		h.logger = slog.New(slog.DiscardHandler)
	}
	h.events = pubsub.NewBroker(pubsub.Options[Event]{Size: eventSize, Logger: h.logger})
	h.adminOrigin = h.nextOrigin.Add(1)
	return h, nil
}

// OpenRoom opens the room of topicID (idempotent) and seats the admin
// identity in it when SetAdmin was called (docs/design.md §6: the UI sits in every
// room it opens). It reads the log's tail once to learn whether the topic
// already has posts (for NoteFirstPost). Errors: ErrClosed after Close;
// ErrNoRoom (wrapped) for an empty topic id.
func (h *Hub) OpenRoom(topicID string) error {
	if topicID == "" {
		return fmt.Errorf("open room: empty topic id: %w", ErrNoRoom)
	}
	h.mu.Lock()
	_, open := h.rooms[topicID]
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if open {
		return nil
	}
	// Read outside Hub.mu: file I/O must not stall other rooms' lookups.
	logged := h.loggedIDs(topicID)
	logEmpty := len(logged) == 0 && h.logIsEmpty(topicID)

	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if _, open := h.rooms[topicID]; open {
		return nil
	}
	r := &roomState{topic: topicID, logEmpty: logEmpty}
	for _, rec := range logged {
		r.ids.add(Post{MessageID: rec.MessageID}, 0, "")
	}
	h.rooms[topicID] = r
	if h.admin != nil {
		r.mu.Lock()
		h.seatAdminLocked(r, *h.admin)
		r.mu.Unlock()
	}
	return nil
}

// seededIDs is how many of the log's newest posts a room's message-id
// check starts with, so a post from an earlier run cannot be shadowed by a
// new one reusing its id after a restart or reopen. One history page (the
// most the chat loads at once): the records are read whole, and posts may
// be large.
const seededIDs = HistoryMax

// loggedIDs reads the newest seededIDs records of the topic log (nil when
// there is no log or no post; a read error is logged and reads as none).
func (h *Hub) loggedIDs(topicID string) []logstore.Record {
	if h.log == nil {
		return nil
	}
	recs, _, err := h.log.Page(topicID, "", seededIDs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		h.logger.Warn("room: reading topic log ids at open", "topic", topicID, "err", err)
	}
	return recs
}

// logIsEmpty reports whether the topic log has no post yet. A read error
// other than "not exist" counts as "has posts": naming an existing topic
// again from a later post would be worse than not naming a new one.
func (h *Hub) logIsEmpty(topicID string) bool {
	if h.log == nil {
		return false
	}
	recs, _, err := h.log.Page(topicID, "", 1)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return true
		}
		h.logger.Warn("room: reading topic log at open", "topic", topicID, "err", err)
		return false
	}
	return len(recs) == 0
}

// CloseRoom drops the room of topicID; its connections then get ErrNoRoom.
// Unknown topics are ignored.
func (h *Hub) CloseRoom(topicID string) {
	h.mu.Lock()
	r := h.rooms[topicID]
	delete(h.rooms, topicID)
	h.mu.Unlock()
	if r == nil {
		return
	}
	r.mu.Lock()
	r.closeErr = ErrNoRoom
	r.members = nil
	r.mu.Unlock()
}

// Rooms returns the topic ids of the open rooms, sorted.
func (h *Hub) Rooms() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.rooms))
	for id := range h.rooms {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// SetAdmin declares the UI's identity (Name, Hue, AccountID, FullName; Room
// is ignored; an account Identities knows is named as it says) and seats
// it, role admin, in every open room now and in every room opened later
// (docs/design.md §4, §6: the only source of admin). Calling it again
// renames: the seat and its floor position stay.
func (h *Hub) SetAdmin(id Hello) {
	h.idMu.Lock()
	defer h.idMu.Unlock()
	id = cleanHello(id)
	if named, err := h.identify(id); err != nil {
		h.logger.Warn("room: the admin's account names are kept as given", "err", err)
	} else {
		id = named
	}
	id.Room = ""
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.admin = &id
	for _, r := range h.rooms {
		r.mu.Lock()
		h.seatAdminLocked(r, id)
		r.mu.Unlock()
	}
}

// seatAdminLocked seats or renames the admin in r. Holds r.mu.
func (h *Hub) seatAdminLocked(r *roomState, id Hello) {
	if m := r.member(h.adminOrigin); m != nil {
		m.hello = id
	} else {
		r.members = append(r.members, &member{
			origin: h.adminOrigin, hello: id, role: RoleAdmin, joinSeq: r.seq, local: true,
		})
	}
	h.emit(RosterChanged{Topic: r.topic, Roster: r.roster()})
}

// Post is the UI's entry point (role admin), judged by the floor like every
// other post (docs/design.md §2). Errors: ErrNoRoom, ErrNoAdmin (SetAdmin not called),
// ErrEmptyPost, ErrOnlyMentions, ErrClosed. A floor rejection is not an error:
// Result.Delivered is false and Result.Missed holds the unseen posts.
func (h *Hub) Post(topicID string, d Draft) (Result, error) {
	r, err := h.room(topicID)
	if err != nil {
		return Result{}, err
	}
	return h.deliver(r, sender{kind: sendUI, origin: h.adminOrigin}, d)
}

// AppNotice delivers a notice of Pullcept's own into topicID's room through
// the one post path (docs/design.md §2): speaker Pullcept, role app, never
// judged by the floor, no mention parsing, logged, shown, and typed into
// every seat except the accounts in skip (a notice about a seat that must
// not cost it a turn: a usage-limit stop). Errors: ErrNoRoom, ErrEmptyPost,
// ErrPostTooLong, ErrClosed.
func (h *Hub) AppNotice(topicID, content string, skip ...string) (Post, error) {
	r, err := h.room(topicID)
	if err != nil {
		return Post{}, err
	}
	res, err := h.deliver(r, sender{kind: sendApp, skip: skip}, Draft{Content: content})
	return res.Post, err
}

// History returns up to limit posts of topicID older than the post before
// ("" = the newest), oldest first, and whether older posts exist (docs/design.md §6
// history). limit ≤ 0 means HistoryDefault, more than HistoryMax is cut to
// it. With a Log it reads the log (the truth, with posts from earlier runs;
// the room need not be open); without one it reads the open room's floor
// window. Roles of read posts: from_app → app; else the account's kind
// (admin, mcp, claude_code, codex_cli, cli; the admin's own account → admin);
// else unknown. Hue is unknown (nil): the log never stores it. Errors:
// ErrNoRoom (no Log and no open room), ErrNoMessage (before not in the
// window), the Log's errors wrapped, ErrClosed.
func (h *Hub) History(topicID, before string, limit int) (posts []Post, hasMore bool, err error) {
	h.mu.Lock()
	closed := h.closed
	r := h.rooms[topicID]
	h.mu.Unlock()
	if closed {
		return nil, false, ErrClosed
	}
	if h.log == nil && r == nil {
		return nil, false, ErrNoRoom
	}
	return h.history(topicID, r, before, limit)
}

// history reads from the log, or without one from r's window.
func (h *Hub) history(topicID string, r *roomState, before string, limit int) ([]Post, bool, error) {
	if limit <= 0 {
		limit = HistoryDefault
	}
	limit = min(limit, HistoryMax)
	if h.log == nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.closeErr != nil {
			return nil, false, r.closeErr
		}
		posts, more, ok := r.floor.before(before, limit)
		if !ok {
			return nil, false, fmt.Errorf("history before %q: %w", before, ErrNoMessage)
		}
		return posts, more, nil
	}
	recs, more, err := h.log.Page(topicID, before, limit)
	if err != nil {
		return nil, false, fmt.Errorf("read topic log %q: %w", topicID, err)
	}
	h.mu.Lock()
	var adminAccount string
	if h.admin != nil {
		adminAccount = h.admin.AccountID
	}
	h.mu.Unlock()
	posts := make([]Post, 0, len(recs))
	for _, rec := range recs {
		role := h.logRole(rec, adminAccount)
		posts = append(posts, Post{
			MessageID: rec.MessageID,
			Role:      role,
			Speaker:   rec.Speaker,
			FullName:  rec.FullName,
			Signed:    logSigned(rec, role),
			Account:   rec.Account,
			FromApp:   rec.FromApp,
			Content:   rec.Content,
			To:        []string(rec.To),
			TS:        rec.TS,
			Size:      rec.Size,
			BodyFile:  h.log.BodyPath(topicID, rec.BodyFile),
		})
	}
	return posts, more, nil
}

// Roster returns the connections seated in topicID's room, in join order.
// Errors: ErrNoRoom, ErrClosed.
func (h *Hub) Roster(topicID string) ([]Member, error) {
	r, err := h.room(topicID)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closeErr != nil {
		return nil, r.closeErr
	}
	return r.roster(), nil
}

// Subscribe returns a new subscription to every room's events from now on
// (must-deliver, one order for all subscribers, bounded per subscriber: see
// room/pubsub). After Close it returns a subscription whose C is already
// closed.
func (h *Hub) Subscribe() *Subscription { return h.events.Subscribe() }

// emit queues e to every subscriber; it never blocks.
func (h *Hub) emit(e Event) { h.events.Publish(e) }

// Connect returns a new connection (a new origin) that sits in no room until
// its first Hello (docs/design.md §6). Each socket gets its own.
func (h *Hub) Connect() *Conn {
	return &Conn{hub: h, origin: h.nextOrigin.Add(1)}
}

// Report hands a POST hook of the seat (topicID, accountID) to the
// terminals (Terminals.Reported, docs/design.md §6, §11): kind is
// ReportStatus or ReportActivity, event the activity's hook event name (""
// for status). It touches no roster, floor or log and keeps nothing itself.
// Errors: ErrNoSeat when no seat of that topic and account runs (or its
// kind sends no hooks, or there are no terminals), ErrClosed.
func (h *Hub) Report(topicID, accountID, kind, event string, body json.RawMessage) error {
	return h.report(topicID, accountID, Report{Kind: kind, Event: event, Body: body})
}

// report is Report with the whole report (AskPermission names its card).
func (h *Hub) report(topicID, accountID string, r Report) error {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return ErrClosed
	}
	r.Body = slices.Clone(r.Body)
	if h.terms == nil || !h.terms.Reported(topicID, accountID, r) {
		return fmt.Errorf("hook for %s in %s: %w", accountID, topicID, ErrNoSeat)
	}
	return nil
}

// Close closes every room (their connections then get ErrClosed) and every
// subscription (their C is closed), waiting for the pumps. Idempotent.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	rooms := h.rooms
	h.rooms = make(map[string]*roomState)
	h.mu.Unlock()
	for _, r := range rooms {
		r.mu.Lock()
		r.closeErr = ErrClosed
		r.members = nil
		r.mu.Unlock()
	}
	h.closeAsks() // their cards close before the subscriptions do
	h.events.Close()
}

// room returns the open room of topicID.
func (h *Hub) room(topicID string) (*roomState, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	r := h.rooms[topicID]
	if r == nil {
		return nil, fmt.Errorf("room %q: %w", topicID, ErrNoRoom)
	}
	return r, nil
}

// deliver is the one path every post takes (docs/design.md §2, spec «会話ループ»,
// «床»): inside one acquisition of the room lock it resolves addressees,
// judges the floor, stamps the post, orders it, appends it to the log,
// counts it for the brake, enqueues the typing and the events. A post that
// engages the brake is followed, in the same acquisition, by the app notice
// that says so. A long post's body file is written before the lock and
// the index write for a topic's first post after it (docs/design.md §2:
// nothing slow under the lock; longbody.go).
func (h *Hub) deliver(r *roomState, s sender, d Draft) (Result, error) {
	if strings.TrimSpace(d.Content) == "" {
		return Result{}, ErrEmptyPost
	}
	if len(d.Content) > MaxPostBytes {
		// The UI's posts have no frame to bound them: a paste of 100 MB
		// would be one log line over logstore.MaxLineBytes.
		return Result{}, fmt.Errorf("%w: %d bytes, the limit is %d", ErrPostTooLong, len(d.Content), MaxPostBytes)
	}
	long := h.writeLong(r, s, &d)
	for try := 1; ; try++ {
		out, notice, err := h.deliverOnce(r, s, d, long)
		h.dropUnused(r.topic, long)
		if err != nil {
			return Result{}, err
		}
		if !out.restamped {
			h.noteFirst(r, out)
			h.noteFirst(r, notice)
			return out.res, nil
		}
		long = h.rewriteLong(r.topic, d.MessageID, out.text, try)
	}
}

// deliverOnce is one acquisition of the room lock: the draft, and the
// brake's app notice when the draft engaged the brake.
func (h *Hub) deliverOnce(r *roomState, s sender, d Draft, long *longBody) (out, notice delivery, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out, err = h.deliverLocked(r, s, d, long)
	if err == nil && out.braked {
		notice, err = h.deliverLocked(r, sender{kind: sendApp}, Draft{Content: h.brakeNotice(out.brakeCount)}, nil)
		if err != nil { // the room is open and the text is ours: never expected
			h.logger.Error("room: brake notice not delivered", "topic", r.topic, "err", err)
			err = nil
		}
	}
	return out, notice, err
}

// delivery is what deliverLocked did with one draft.
type delivery struct {
	res        Result
	first      bool // res.Post was the first post the topic log ever got
	braked     bool // res.Post engaged the room's brake
	brakeCount int  // after how many AI posts in a row (the notice says it)
	// restamped: nothing was delivered, because the post is long and its
	// body file does not hold text, the body stamped under the lock
	// (longBody.holds); deliver writes text and tries again.
	restamped bool
	text      string
}

// noteFirst names and indexes the topic from its first post (outside the
// room lock).
func (h *Hub) noteFirst(r *roomState, out delivery) {
	if !out.first {
		return
	}
	if err := h.log.NoteFirstPost(r.topic, toRecord(out.res.Post)); err != nil {
		err = fmt.Errorf("index first post of topic %q: %w", r.topic, err)
		h.logger.Warn("room: index write failed", "topic", r.topic, "err", err)
		h.emit(LogFailed{Topic: r.topic, MessageID: out.res.Post.MessageID, Err: err})
	}
}

// deliverLocked is deliver's body for one draft under r.mu: stamp, judge
// (notices are never judged, docs/design.md §2), then commit. long is the
// body file written for d before the lock (nil when d is not long).
func (h *Hub) deliverLocked(r *roomState, s sender, d Draft, long *longBody) (delivery, error) {
	if r.closeErr != nil {
		return delivery{}, r.closeErr
	}
	if p, retry, err := r.ids.check(d.MessageID, s.origin, d.Content); err != nil {
		return delivery{}, err
	} else if retry {
		return delivery{res: Result{Delivered: true, Post: p}}, nil
	}
	p, m, err := h.stampLocked(r, s, d)
	if err != nil {
		return delivery{}, err
	}
	origin, skip := uint64(0), s.skip
	if m != nil {
		// Every post but a notice is judged, the UI's too (docs/design.md §2).
		if missed := r.floor.judge(d.LastSeen, m.origin, m.joinSeq); len(missed) > 0 {
			return delivery{res: Result{Delivered: false, Post: p, Missed: missed}}, nil
		}
		origin, skip = m.origin, nil
	}
	if h.log != nil && !long.holds(p.Content) {
		return delivery{restamped: true, text: p.Content}, nil
	}
	r.ids.add(p, origin, d.Content)
	return h.commitLocked(r, p, origin, skip, long), nil
}

// stampLocked makes the post of d as the room stamps it: speaker, role,
// account and hue from the sender's seat (m), or the notice's own for an
// app or MCP notice (m nil: no mention processing, the text as given);
// addressees from to and the body's mentions; the message id and time.
// Holds r.mu.
func (h *Hub) stampLocked(r *roomState, s sender, d Draft) (Post, *member, error) {
	var p Post
	var m *member
	switch s.kind {
	case sendApp:
		p = Post{Role: RoleApp, Speaker: AppSpeaker, FromApp: true, Content: d.Content}
	case sendMCP:
		p = s.as
		p.Content = d.Content
	default:
		var err error
		if p, m, err = h.stampSeatLocked(r, s, d); err != nil {
			return Post{}, nil, err
		}
	}
	p.MessageID = d.MessageID
	if p.MessageID == "" {
		p.MessageID = h.newID()
	}
	p.TS = h.stampTS(d.TS)
	return p, m, nil
}

// stampSeatLocked is stampLocked for a seat's post (the UI's or a
// socket's): the seat's names, role, account and hue; the body without
// its mentions; the addressees. Holds r.mu.
func (h *Hub) stampSeatLocked(r *roomState, s sender, d Draft) (Post, *member, error) {
	m := r.member(s.origin)
	if m == nil {
		if s.kind == sendUI {
			return Post{}, nil, ErrNoAdmin
		}
		return Post{}, nil, fmt.Errorf("connection has no seat in room %q: %w", r.topic, ErrNoRoom)
	}
	p := Post{
		Role:     m.role,
		Speaker:  m.hello.Name,
		FullName: m.hello.FullName,
		Account:  m.hello.AccountID,
		Hue:      m.hello.Hue,
	}
	body, mentions := d.Content, []string(nil)
	if strings.ContainsAny(d.Content, "@＠") { // the roster names only when needed
		body, mentions = takeMentions(d.Content, r.names())
	}
	if mentions != nil && strings.TrimSpace(body) == "" {
		return Post{}, nil, ErrOnlyMentions
	}
	p.Content = body
	p.To = Addressees(d.To)
	for _, name := range mentions {
		p.To = addName(p.To, name)
	}
	return p, m, nil
}

// commitLocked delivers the stamped post p said by origin (0: a
// notice): it orders it, puts it on the floor, appends it to the log,
// counts it for the brake, enqueues the typing and emits PostDelivered
// (then LogFailed and BrakeChanged when they apply). A long post names
// long, its body file written before the lock. Holds r.mu.
func (h *Hub) commitLocked(r *roomState, p Post, origin uint64, skip []string, long *longBody) delivery {
	rec := toRecord(p)
	var bodyErr error
	if h.log != nil {
		p, rec.BodyFile, bodyErr = keepLong(p, long)
	}
	r.seq++
	r.floor.push(floorEntry{post: p, origin: origin, seq: r.seq})
	out := delivery{res: Result{Delivered: true, Post: p}}
	if h.log != nil {
		if err := h.log.Append(r.topic, rec); err != nil {
			out.res.LogErr = fmt.Errorf("append post %s to topic log %q: %w", p.MessageID, r.topic, err)
			h.logger.Warn("room: log append failed; post still delivered", "topic", r.topic, "err", err)
		} else if r.logEmpty {
			r.logEmpty = false
			out.first = true
		}
	}
	change, changed := r.brake.count(int(h.brake.Load()), p.Role)
	h.typeLocked(r, p, skip)
	h.emit(PostDelivered{Topic: r.topic, Seq: r.seq, Post: p})
	if out.res.LogErr != nil {
		h.emit(LogFailed{Topic: r.topic, MessageID: p.MessageID, Err: out.res.LogErr})
	}
	if bodyErr != nil {
		h.emit(LogFailed{Topic: r.topic, MessageID: p.MessageID, Err: bodyErr})
	}
	if changed {
		change.Topic = r.topic
		h.emit(change)
		out.braked, out.brakeCount = change.On, change.Count
	}
	return out
}

// typeLocked enqueues p for every seated account but the speaker's, each
// account once (docs/design.md §2: own posts are never typed back; two connections of
// one account are one terminal). Accounts without a running seat make
// Enqueue report false and get nothing. While the room's brake is on, an AI
// post is typed into no one (docs/design.md §2 "The brake"). An addressed
// post carries, for each seat, what the room calls that seat now (You,
// YourFullName: the tag's "you", docs/design.md §4). Holds r.mu.
func (h *Hub) typeLocked(r *roomState, p Post, skip []string) {
	if h.terms == nil {
		return
	}
	if r.brake.on && p.Role.AI() {
		r.brake.hold(p, h.seatedFor(r, p, skip))
		return
	}
	h.typeInto(r, p, skip, nil)
}

// typeInto enqueues p for every seated account but the speaker's and
// skip's, each account once; when held is not nil, only for the accounts
// in it (a held post's, ReleaseBrake). Holds r.mu.
func (h *Hub) typeInto(r *roomState, p Post, skip, held []string) {
	var done [8]string // rooms rarely hold more accounts; avoids an allocation
	typed := done[:0]
	for _, m := range r.members {
		acct := m.hello.AccountID
		if acct == "" || acct == p.Account || slices.Contains(typed, acct) || slices.Contains(skip, acct) ||
			held != nil && !slices.Contains(held, acct) {
			continue
		}
		typed = append(typed, acct)
		q := p
		if len(p.To) > 0 {
			q.You, q.YourFullName = m.hello.Name, m.hello.FullName
		}
		h.terms.Enqueue(r.topic, acct, q)
	}
}

// seatedFor is the accounts typeInto would type p into now: those a post
// the brake holds is kept from (never nil). Holds r.mu.
func (h *Hub) seatedFor(r *roomState, p Post, skip []string) []string {
	to := []string{}
	for _, m := range r.members {
		acct := m.hello.AccountID
		if acct != "" && acct != p.Account && !slices.Contains(to, acct) && !slices.Contains(skip, acct) {
			to = append(to, acct)
		}
	}
	return to
}

// socketRole is the role of a socket connection's posts: the kind of the
// account its hello named (docs/design.md §4). No account, an unknown account, or one
// of kind admin or mcp gives unknown: admin never comes from a socket.
func (h *Hub) socketRole(accountID string) Role {
	if accountID == "" || h.accounts == nil {
		return RoleUnknown
	}
	kind, ok := h.accounts.AccountKind(accountID)
	if !ok {
		return RoleUnknown
	}
	switch r := Role(kind); r {
	case RoleClaudeCode, RoleCodexCLI, RoleCLI:
		return r
	}
	return RoleUnknown
}

// checkSocketAccount refuses a socket's hello naming the human's (admin) or
// an MCP server's account: no socket may ever sit as either. The log keeps
// the account, and history re-derives the role from it, so a socket posting
// as the admin account read back as the human's own post.
func (h *Hub) checkSocketAccount(accountID string) error {
	if accountID == "" || h.accounts == nil {
		return nil
	}
	switch kind, _ := h.accounts.AccountKind(accountID); Role(kind) {
	case RoleAdmin, RoleMCP:
		return fmt.Errorf("%w: account %q is the %s's; a socket cannot sit as it", ErrBadHello, accountID, kind)
	}
	return nil
}

// checkSocketName refuses a socket's hello naming itself as the human
// (the admin's display name, any case) or as Pullcept's own notices: its
// posts would be drawn under a name the human trusts (breaker review).
func (h *Hub) checkSocketName(name string) error {
	name = strings.TrimSpace(name)
	switch {
	case h.humansName(name):
		return fmt.Errorf("%w: the name %q is the human's", ErrBadHello, name)
	case strings.EqualFold(name, AppSpeaker):
		return fmt.Errorf("%w: the name %q is Pullcept's own", ErrBadHello, name)
	}
	return nil
}

// humansName reports a name that is the human's display name or the
// original name a nickname hides (SetAdmin's Name and FullName), compared
// as config compares account names: NFKC, case folded, ends trimmed.
func (h *Hub) humansName(name string) bool {
	h.mu.Lock()
	var names []string
	if h.admin != nil {
		names = []string{h.admin.Name, h.admin.FullName}
	}
	h.mu.Unlock()
	key := foldName(name)
	for _, n := range names {
		if k := foldName(n); k != "" && k == key {
			return true
		}
	}
	return false
}

// logRole reconstructs the role of a post read from the log, which never
// stores roles (docs/design.md §8).
func (h *Hub) logRole(rec logstore.Record, adminAccount string) Role {
	switch {
	case rec.FromApp:
		return RoleApp
	case rec.Account == "":
		return RoleUnknown
	case rec.Account == adminAccount:
		return RoleAdmin
	case h.accounts == nil:
		return RoleUnknown
	}
	kind, ok := h.accounts.AccountKind(rec.Account)
	if !ok {
		return RoleUnknown
	}
	switch r := Role(kind); r {
	case RoleAdmin, RoleMCP, RoleClaudeCode, RoleCodexCLI, RoleCLI:
		return r
	}
	return RoleUnknown
}

// logSigned is the signature a log line gives a post read back: only an
// mcp notice carries one, and only a name the room could carry (a line
// written by hand gets no mark it could not have had live).
func logSigned(rec logstore.Record, role Role) string {
	if role != RoleMCP || checkSigner(rec.Signed) != nil {
		return ""
	}
	return strings.TrimSpace(rec.Signed)
}

// toRecord is the log line of p: never hue or role (docs/design.md §8).
func toRecord(p Post) logstore.Record {
	return logstore.Record{
		MessageID: p.MessageID,
		Speaker:   p.Speaker,
		FullName:  p.FullName,
		Signed:    p.Signed,
		Account:   p.Account,
		FromApp:   p.FromApp,
		Content:   p.Content,
		To:        logstore.Names(p.To),
		TS:        p.TS,
	}
}

// cleanHello trims the name and copies the hue so the caller's later writes
// cannot change the room's copy.
func cleanHello(hl Hello) Hello {
	hl.Name = strings.TrimSpace(hl.Name)
	hl.FullName = strings.TrimSpace(hl.FullName)
	if hl.Hue != nil {
		hue := *hl.Hue
		hl.Hue = &hue
	}
	return hl
}

// member returns the seat of origin, or nil. Holds r.mu.
func (r *roomState) member(origin uint64) *member {
	for _, m := range r.members {
		if m.origin == origin {
			return m
		}
	}
	return nil
}

// names returns the roster names mentions are matched against. Holds r.mu.
func (r *roomState) names() []string {
	names := make([]string, 0, len(r.members))
	for _, m := range r.members {
		names = append(names, m.hello.Name)
	}
	return names
}

// roster returns the public roster, join order, with its own hue copies.
// Holds r.mu.
func (r *roomState) roster() []Member {
	out := make([]Member, 0, len(r.members))
	for _, m := range r.members {
		var hue *int
		if m.hello.Hue != nil {
			v := *m.hello.Hue
			hue = &v
		}
		out = append(out, Member{
			Name:      m.hello.Name,
			FullName:  m.hello.FullName,
			AccountID: m.hello.AccountID,
			Hue:       hue,
			Role:      m.role,
			Local:     m.local,
		})
	}
	return out
}

// maxTSSkew is how far a sender's ts may be from the room's clock and still
// be kept: a sidecar stamps when the model called the tool, a moment
// earlier. Beyond it the room stamps the post itself — a sender must not
// date its post into the future (9999-12-31 was accepted and shown) or
// the past.
const maxTSSkew = 2 * time.Minute

// stampTS is the post's ts: the sender's when it parses and lies within
// maxTSSkew of now, else now (docs/design.md §6).
func (h *Hub) stampTS(ts string) string {
	now := h.now()
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil && t.After(now.Add(-maxTSSkew)) && t.Before(now.Add(maxTSSkew)) {
		return ts
	}
	return now.UTC().Format(TimeLayout)
}
