package seats

// Outlook is what starting a seat again in its topic would do with the
// conversation recorded for it, as the resume rule (DecideResume) judges
// it now. The quit dialog tells the human which seats will resume.
type Outlook int

// Outlooks: a fresh start first.
const (
	// OutlookNoSession: nothing is recorded (yet), so it starts fresh (a
	// Codex seat before its first turn, a generic CLI without {session_id}).
	OutlookNoSession Outlook = iota
	// OutlookResumes: the recorded conversation resumes.
	OutlookResumes
	// OutlookNoResumeLine: a generic CLI without a resume line starts fresh.
	OutlookNoResumeLine
	// OutlookGone: the recorded conversation is not on disk (Claude Code
	// writes its transcript only at its first turn), so it starts fresh.
	OutlookGone
)

// NextStart judges what starting accountID in topicID again would do:
// the recorded id and the CLI's conversation are read as Start would read
// them, in the environment the seat runs with (the process's when there
// is no seat). Nothing is dropped; a generic CLI's answer needs no disk.
func (m *Manager) NextStart(topicID, accountID string) Outlook {
	acct, ok := m.opts.Accounts(accountID)
	if !ok {
		return OutlookNoSession
	}
	ad, ok := m.kinds[acct.Kind]
	if !ok {
		return OutlookNoSession
	}
	recorded, _ := m.opts.Sessions.Session(topicID, accountID)
	var env []string
	if s, ok := m.Seat(topicID, accountID); ok {
		env = s.launch.Env
	}
	resume, drop, _ := DecideResume(acct, recorded, m.conversation(ad, acct, recorded, env))
	switch {
	case resume:
		return OutlookResumes
	case drop:
		return OutlookGone
	case !acct.Kind.Launches() || recorded == "":
		return OutlookNoSession
	}
	return OutlookNoResumeLine
}
