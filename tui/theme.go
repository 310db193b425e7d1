package tui

import (
	"hash/fnv"
	"image/color"
	"math"

	"charm.land/lipgloss/v2"
	"github.com/lucasb-eyer/go-colorful"
)

// Participant colours (spec «参加者ごとの色»): lightness and chroma are
// pinned to the accent's OKLCH values, only the hue varies, so any hue reads
// on its background.
const (
	hueLightL = 0.481 // OKLCH lightness of the light accent #185fa5
	hueLightC = 0.131 // its chroma
	hueDarkL  = 0.715 // OKLCH lightness of the dark accent #7aa7d8
	hueDarkC  = 0.087 // its chroma
	// accentHue is the accent's OKLCH hue in degrees: the admin's default.
	accentHue = 254
	// hueGap is the window around the accent that hues derived from a name
	// avoid, so a stranger never looks like the screen's own colour.
	hueGap = 50
)

// theme holds the chrome colours and styles for one background (light or dark,
// docs/design.md §10 "colours adapt"). It is rebuilt on tea.BackgroundColorMsg
// and when the theme setting changes (Model.applyTheme).
type theme struct {
	dark bool

	fg, muted, accent, line, danger, ok, selBg, tint color.Color

	text, dim, accentS, dangerS, okS, title, sel, selDim lipgloss.Style
	border, borderFocus                                  lipgloss.Style
	// chip is an attachment's name on the tint, chipX its ✕, chipSel the
	// chip chosen in the chat (docs/design.md §10).
	chip, chipX, chipSel lipgloss.Style

	hues    map[int]color.Color
	grounds map[int]color.Color // a mark's ground for each hue (markStyle)
}

func newTheme(dark bool) *theme {
	ld := lipgloss.LightDark(dark)
	t := &theme{
		dark:   dark,
		fg:     ld(lipgloss.Color("#1f1f1e"), lipgloss.Color("#e6e6ea")),
		muted:  ld(lipgloss.Color("#73726c"), lipgloss.Color("#8b8b96")),
		accent: ld(lipgloss.Color("#185fa5"), lipgloss.Color("#7aa7d8")),
		line:   ld(lipgloss.Color("#c8c8c6"), lipgloss.Color("#3a3a42")),
		danger: ld(lipgloss.Color("#b3261e"), lipgloss.Color("#f2827a")),
		ok:     ld(lipgloss.Color("#3b6d11"), lipgloss.Color("#7fc08f")),
		selBg:  ld(lipgloss.Color("#edece8"), lipgloss.Color("#2c2c34")),
		// The spec's --tint (screen «二つの地色»): chips are drawn on it.
		tint:    ld(lipgloss.Color("#f4f4f7"), lipgloss.Color("#202026")),
		hues:    map[int]color.Color{},
		grounds: map[int]color.Color{},
	}
	t.text = lipgloss.NewStyle().Foreground(t.fg)
	t.dim = lipgloss.NewStyle().Foreground(t.muted)
	t.accentS = lipgloss.NewStyle().Foreground(t.accent)
	t.dangerS = lipgloss.NewStyle().Foreground(t.danger)
	t.okS = lipgloss.NewStyle().Foreground(t.ok)
	t.title = lipgloss.NewStyle().Foreground(t.fg).Bold(true)
	t.sel = lipgloss.NewStyle().Foreground(t.fg).Background(t.selBg)
	t.selDim = lipgloss.NewStyle().Foreground(t.muted).Background(t.selBg)
	t.border = lipgloss.NewStyle().Foreground(t.line)
	t.chip = lipgloss.NewStyle().Foreground(t.fg).Background(t.tint)
	t.chipX = lipgloss.NewStyle().Foreground(t.muted).Background(t.tint)
	t.chipSel = lipgloss.NewStyle().Foreground(t.accent).Background(t.tint).Reverse(true)
	t.borderFocus = lipgloss.NewStyle().Foreground(t.accent)
	return t
}

// hue returns the participant colour for deg degrees (any integer; taken
// modulo 360) on this background.
func (t *theme) hue(deg int) color.Color {
	deg = ((deg % 360) + 360) % 360
	if c, ok := t.hues[deg]; ok {
		return c
	}
	l, c := hueDarkL, hueDarkC
	if !t.dark {
		l, c = hueLightL, hueLightC
	}
	col := colorful.OkLch(l, c, float64(deg)).Clamped()
	t.hues[deg] = col
	return col
}

// nameHue derives a stable hue from a display name (spec «参加者ごとの色»,
// rung 3): FNV-1a of the name spread over the circle minus the accent's
// window, so the same name always gets the same colour across runs.
func nameHue(name string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	span := 360 - hueGap
	v := int(h.Sum32() % uint32(span))
	start := accentHue + hueGap/2
	return (start + v) % 360
}

// speakerHue applies the hue ladder (spec «参加者ごとの色»): a declared hue
// first, then the admin's own accent for the screen's own name, else a hue
// derived from the name.
func speakerHue(declared *int, speaker, self string, selfHue *int) int {
	if declared != nil {
		return *declared
	}
	if speaker != "" && speaker == self {
		if selfHue != nil {
			return *selfHue
		}
		return accentHue
	}
	return nameHue(speaker)
}

// accountHue is an account's colour (spec «参加者ごとの色»): its declared
// hue, else the accent for the screen's own admin (adminID), else one
// derived from its display name. The panel, the chat and the panes draw an
// account in it.
func accountHue(a AccountInfo, adminID string) int {
	switch {
	case a.Hue != nil:
		return *a.Hue
	case a.ID == adminID:
		return accentHue
	}
	return nameHue(displayAccountName(a))
}

// huePalette is the eight hues the editor offers (spec: "宣言は 8 色から選ぶ"),
// 45° apart starting at the accent, so any two declared hues are apart.
func huePalette() []int {
	out := make([]int, 8)
	for i := range out {
		out[i] = int(math.Mod(float64(accentHue+45*i), 360))
	}
	return out
}

// hueStyle is a foreground style in the participant colour for deg.
func (t *theme) hueStyle(deg int) lipgloss.Style {
	return lipgloss.NewStyle().Foreground(t.hue(deg))
}

// The page's ground the spec mixes a mark's ground on (screen «ライトの色»:
// --bg), and how much of the participant's colour goes in: 13 % on light,
// 22 % on dark.
const (
	markLightBg, markLightMix = "#ffffff", 0.13
	markDarkBg, markDarkMix   = "#17171a", 0.22
)

// markStyle draws a participant's mark of initials (spec «会話面の見た目»):
// its colour on a faint mix of it with the page, as the spec's round mark.
func (t *theme) markStyle(deg int) lipgloss.Style {
	deg = ((deg % 360) + 360) % 360
	ground, ok := t.grounds[deg]
	if !ok {
		bg, mix := markLightBg, markLightMix
		if t.dark {
			bg, mix = markDarkBg, markDarkMix
		}
		page, _ := colorful.Hex(bg)
		hue, _ := colorful.MakeColor(t.hue(deg))
		ground = page.BlendRgb(hue, mix).Clamped()
		t.grounds[deg] = ground
	}
	return lipgloss.NewStyle().Foreground(t.hue(deg)).Background(ground)
}
