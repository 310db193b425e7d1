package emu

import (
	"strconv"

	"github.com/charmbracelet/x/ansi"
)

// Color is a packed colour: the default colour (zero), an indexed colour
// (0–255; 0–15 are the basic and bright ones SGR 30–37 and 90–97 select) or a
// 24-bit RGB colour. Colours compare with ==.
type Color uint32

// The kinds of Color, in its top byte.
const (
	colorIndexed = 1 << 24
	colorRGB     = 2 << 24
	colorKind    = 0xff << 24
)

// DefaultColor is the terminal's default foreground, background or
// underline colour.
const DefaultColor Color = 0

// IndexedColor is palette entry n.
func IndexedColor(n uint8) Color { return Color(colorIndexed | uint32(n)) }

// RGBColor is a 24-bit colour.
func RGBColor(r, g, b uint8) Color {
	return Color(colorRGB | uint32(r)<<16 | uint32(g)<<8 | uint32(b))
}

// Index is the palette entry of an indexed colour.
func (c Color) Index() (n uint8, ok bool) {
	return uint8(c), c&colorKind == colorIndexed
}

// RGB is the value of an RGB colour.
func (c Color) RGB() (r, g, b uint8, ok bool) {
	return uint8(c >> 16), uint8(c >> 8), uint8(c), c&colorKind == colorRGB
}

// Attribute bits of Style.Attrs.
const (
	AttrBold uint16 = 1 << iota
	AttrFaint
	AttrItalic
	AttrBlink
	AttrRapidBlink
	AttrReverse
	AttrConceal
	AttrStrikethrough
	AttrOverline
)

// Underline styles of Style.Underline (SGR 4, 4:0…4:5, 21).
const (
	UnderlineNone uint8 = iota
	UnderlineSingle
	UnderlineDouble
	UnderlineCurly
	UnderlineDotted
	UnderlineDashed
)

// Style is a cell's colours and attributes. The zero Style is the default.
type Style struct {
	Fg, Bg, Ul Color
	Attrs      uint16
	Underline  uint8
}

// sgr applies an SGR's parameters to the pen. Unknown parameters are
// skipped; a colour with missing or out-of-range values leaves the pen's
// colour as it was.
func sgr(pen *Style, params ansi.Params) {
	if len(params) == 0 {
		*pen = Style{}
		return
	}
	for i := 0; i < len(params); i++ {
		p := params[i].Param(0)
		switch {
		case p == 4:
			i = sgrUnderline(pen, params, i)
		case p == 38 || p == 48 || p == 58:
			c, last, ok := readColor(params, i)
			if ok {
				switch p {
				case 38:
					pen.Fg = c
				case 48:
					pen.Bg = c
				default:
					pen.Ul = c
				}
			}
			i = last
		case p >= 30 && p <= 37:
			pen.Fg = IndexedColor(uint8(p - 30))
		case p >= 40 && p <= 47:
			pen.Bg = IndexedColor(uint8(p - 40))
		case p >= 90 && p <= 97:
			pen.Fg = IndexedColor(uint8(p - 90 + 8))
		case p >= 100 && p <= 107:
			pen.Bg = IndexedColor(uint8(p - 100 + 8))
		default:
			sgrAttr(pen, p)
		}
	}
}

// sgrAttrSet and sgrAttrReset are the attributes SGR 1–9 set and SGR 20–29
// (and 53, 55) reset.
var sgrAttrSet = [10]uint16{0, AttrBold, AttrFaint, AttrItalic, 0, AttrBlink, AttrRapidBlink, AttrReverse,
	AttrConceal, AttrStrikethrough}

func sgrAttr(pen *Style, p int) {
	switch {
	case p == 0:
		*pen = Style{}
	case p >= 1 && p <= 9:
		pen.Attrs |= sgrAttrSet[p]
	case p == 21:
		pen.Underline = UnderlineDouble
	case p == 22:
		pen.Attrs &^= AttrBold | AttrFaint
	case p == 23:
		pen.Attrs &^= AttrItalic
	case p == 24:
		pen.Underline = UnderlineNone
	case p == 25:
		pen.Attrs &^= AttrBlink | AttrRapidBlink
	case p == 27:
		pen.Attrs &^= AttrReverse
	case p == 28:
		pen.Attrs &^= AttrConceal
	case p == 29:
		pen.Attrs &^= AttrStrikethrough
	case p == 39:
		pen.Fg = DefaultColor
	case p == 49:
		pen.Bg = DefaultColor
	case p == 53:
		pen.Attrs |= AttrOverline
	case p == 55:
		pen.Attrs &^= AttrOverline
	case p == 59:
		pen.Ul = DefaultColor
	}
}

// sgrUnderline reads SGR 4 at params[i], with its style as a
// sub-parameter (4:3 curly); it returns the index of the last parameter
// read.
func sgrUnderline(pen *Style, params ansi.Params, i int) int {
	if !params[i].HasMore() || i+1 >= len(params) {
		pen.Underline = UnderlineSingle
		return i
	}
	last := i + 1
	for last < len(params)-1 && params[last].HasMore() {
		last++ // further sub-parameters are ignored
	}
	if u := params[i+1].Param(0); u >= 0 && u <= int(UnderlineDashed) {
		pen.Underline = uint8(u)
	}
	return last
}

// readColor reads the colour of SGR 38, 48 or 58 at params[i]: 5;n and
// 2;r;g;b, or with colons 5:n, 2:r:g:b and 2:cs:r:g:b. It returns the
// index of the last parameter that belongs to it.
func readColor(params ansi.Params, i int) (c Color, last int, ok bool) {
	if params[i].HasMore() {
		last = i + 1
		for last < len(params)-1 && params[last].HasMore() {
			last++
		}
		if last >= len(params) {
			return 0, len(params) - 1, false
		}
		sub := params[i+1 : last+1]
		switch sub[0].Param(0) {
		case 5:
			if len(sub) >= 2 {
				c, ok = indexed(sub[1].Param(-1))
			}
		case 2:
			if len(sub) >= 4 {
				n := len(sub)
				c, ok = rgb(sub[n-3].Param(0), sub[n-2].Param(0), sub[n-1].Param(0))
			}
		}
		return c, last, ok
	}
	if i+1 >= len(params) {
		return 0, i, false
	}
	switch params[i+1].Param(0) {
	case 5:
		if i+2 < len(params) {
			c, ok = indexed(params[i+2].Param(-1))
			return c, i + 2, ok
		}
		return 0, len(params) - 1, false
	case 2:
		if i+4 < len(params) {
			c, ok = rgb(params[i+2].Param(0), params[i+3].Param(0), params[i+4].Param(0))
			return c, i + 4, ok
		}
		return 0, len(params) - 1, false
	}
	return 0, i + 1, false
}

func indexed(n int) (Color, bool) {
	if n < 0 || n > 255 {
		return 0, false
	}
	return IndexedColor(uint8(n)), true
}

func rgb(r, g, b int) (Color, bool) {
	if r < 0 || r > 255 || g < 0 || g > 255 || b < 0 || b > 255 {
		return 0, false
	}
	return RGBColor(uint8(r), uint8(g), uint8(b)), true
}

// appendSGR appends the SGR that sets exactly st from the default style.
func appendSGR(dst []byte, st Style) []byte {
	if st == (Style{}) {
		return append(dst, "\x1b[m"...)
	}
	dst = append(dst, "\x1b[0"...)
	for i, a := range sgrAttrSet {
		if a != 0 && st.Attrs&a != 0 {
			dst = append(dst, ';', byte('0'+i))
		}
	}
	if st.Attrs&AttrOverline != 0 {
		dst = append(dst, ";53"...)
	}
	switch st.Underline {
	case UnderlineNone:
	case UnderlineSingle:
		dst = append(dst, ";4"...)
	default:
		dst = append(dst, ";4:"...)
		dst = append(dst, byte('0'+st.Underline))
	}
	dst = appendColor(dst, st.Fg, 30, 90, "38")
	dst = appendColor(dst, st.Bg, 40, 100, "48")
	dst = appendColor(dst, st.Ul, 0, 0, "58")
	return append(dst, 'm')
}

// appendColor appends ";<code>" for c: basic and bright colours as base+n
// and bright+n (when base is not 0), others as ext;5;n or ext;2;r;g;b.
func appendColor(dst []byte, c Color, base, bright int, ext string) []byte {
	if c == DefaultColor {
		return dst
	}
	dst = append(dst, ';')
	if n, ok := c.Index(); ok {
		switch {
		case base != 0 && n < 8:
			return strconv.AppendInt(dst, int64(base+int(n)), 10)
		case base != 0 && n < 16:
			return strconv.AppendInt(dst, int64(bright+int(n)-8), 10)
		}
		dst = append(dst, ext...)
		dst = append(dst, ";5;"...)
		return strconv.AppendInt(dst, int64(n), 10)
	}
	r, g, b, _ := c.RGB()
	dst = append(dst, ext...)
	dst = append(dst, ";2;"...)
	dst = strconv.AppendInt(dst, int64(r), 10)
	dst = append(dst, ';')
	dst = strconv.AppendInt(dst, int64(g), 10)
	dst = append(dst, ';')
	return strconv.AppendInt(dst, int64(b), 10)
}
