package room

import (
	"testing"
	"unicode"
)

// FuzzHelloNames: a hello that passes the checks carries no hidden
// character and stays within the bounds; none panics.
func FuzzHelloNames(f *testing.F) {
	for _, s := range []string{"Lin", "Li\nn", "\u202eevil", "名前", "\xff", ""} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, name, to string) {
		hl := Hello{Protocol: Protocol, Name: name, Room: "t", AccountID: "cc"}
		if checkHello(hl) == nil {
			n := 0
			for _, r := range name {
				n++
				if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
					t.Fatalf("name %q with %U passed", name, r)
				}
			}
			if n > maxNameRunes {
				t.Fatalf("name of %d characters passed", n)
			}
		}
		_ = checkTo([]string{to, name})
	})
}
