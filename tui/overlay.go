package tui

// overlayKind names the modal layer over the screen; an open one takes
// every key.
type overlayKind int

const (
	ovNone overlayKind = iota
	ovHelp
	ovPicker
	ovDialog
	ovEditor
)

// overlays is the modal layer: at most one of help, the topic finder, a
// confirmation dialog and the account editor is open at a time.
type overlays struct {
	open    overlayKind    // which one shows; ovNone for none
	helpOff int            // the help overlay's scroll offset in rows
	picker  *topicPicker   // set while open == ovPicker
	dialog  *confirmDialog // set while open == ovDialog
	editor  *accountEditor // set while open == ovEditor
}
