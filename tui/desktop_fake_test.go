package tui

// deskFake is fakeBackend's Desktop: whether a notification would
// reach the human, what was shown, and the error to answer with.
type deskFake struct {
	here  bool
	err   error
	shown []string // "title|body"
}

var _ Desktop = (*fakeBackend)(nil)

func (f *fakeBackend) DesktopNotify(title, body string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.desk.shown = append(f.desk.shown, title+"|"+body)
	return f.desk.err
}

func (f *fakeBackend) DesktopHere() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.desk.here
}
