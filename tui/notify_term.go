package tui

// TEMPORARY: replaced by the notify branch.

type ringKind int

const (
	ringBEL ringKind = iota
	ringOSC9
	ringOSC777
)

func chooseRing(setting string, getenv func(string) string) (ringKind, string) {
	switch setting {
	case "osc9":
		return ringOSC9, "OSC 9"
	case "osc777":
		return ringOSC777, "OSC 777"
	}
	return ringBEL, "BEL"
}

func ringSequence(k ringKind, title, body string, inTmux bool) string {
	switch k {
	case ringOSC9:
		return "\x1b]9;" + sanitize(body) + "\x07"
	case ringOSC777:
		return "\x1b]777;notify;" + title + ";" + sanitize(body) + "\x07"
	}
	return "\a"
}

type Desktop interface {
	DesktopNotify(title, body string) error
	DesktopHere() bool
}

const (
	NotifyTerminal = ""
	NotifyOff      = "off"
	NotifyDesktop  = "desktop"
)
