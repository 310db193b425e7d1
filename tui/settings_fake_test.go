package tui

// setFake is fakeBackend's Settings: the settings file as the app would
// keep it, and every save and remembered layout the UI asked for.
type setFake struct {
	info    SettingsInfo // what Settings answers (its values follow the saves)
	readErr error        // fails Settings
	saveErr error        // fails SaveSettings (nothing saved)
	saves   []SettingValues
	views   []ViewState
	reads   int
	viewErr error
	gate    chan struct{} // holds SaveSettings until closed (nil: none)
}

func (f *fakeBackend) Settings() (SettingsInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set.reads++
	if f.set.readErr != nil {
		return SettingsInfo{}, f.set.readErr
	}
	info := f.set.info
	if info.BrakeMax == 0 {
		info.BrakeMax = 1000
	}
	if info.PermissionWaitMax == 0 {
		info.PermissionWaitMax = 3600
	}
	return info, nil
}

func (f *fakeBackend) SaveSettings(v SettingValues) error {
	f.mu.Lock()
	gate := f.set.gate
	f.mu.Unlock()
	if gate != nil {
		<-gate
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set.saves = append(f.set.saves, v)
	if f.set.saveErr != nil {
		return f.set.saveErr
	}
	f.set.info.SettingValues = v
	return nil
}

func (f *fakeBackend) RememberView(v ViewState) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.set.views = append(f.set.views, v)
	return f.set.viewErr
}
