package tui

import "slices"

// permFake is fakeBackend's Permissions: the cards it holds and the
// answers the UI gave.
type permFake struct {
	cards   []PermissionCard
	answers []permAnswer
	err     error // fails AnswerPermission
}

// permAnswer is one AnswerPermission call.
type permAnswer struct {
	id uint64
	a  PermissionAnswer
}

func (f *fakeBackend) PermissionCards() []PermissionCard {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.perm.cards)
}

func (f *fakeBackend) AnswerPermission(id uint64, a PermissionAnswer) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.perm.answers = append(f.perm.answers, permAnswer{id, a})
	if f.perm.err != nil {
		return f.perm.err
	}
	f.perm.cards = slices.DeleteFunc(f.perm.cards, func(c PermissionCard) bool { return c.ID == id })
	return nil
}

// permAnswers are the answers given so far.
func (f *fakeBackend) permAnswers() []permAnswer {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.perm.answers)
}
