//go:build linux || darwin

package seats_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/seats/launch"
	"github.com/pullcept/pullcept/testdata/fakeapi"
)

// TestE2EClaudeCharacter: an account's character is the style the real
// Claude Code finds under that name — the frontmatter name: of a file in
// the working directory's .claude/output-styles, listed as such by
// ListStyles in the seat's environment — and the seat's model requests
// carry its body (docs/design.md §9 "Character").
func TestE2EClaudeCharacter(t *testing.T) {
	r := newRig(t, nil)
	env, _ := fakeapi.ClaudeEnv(t, r.base, r.root)
	r.setEnv(env)
	ada := r.claudeAccount("ada", "Ada")
	const marker = "PULLCEPT-STYLE-MARKER-7c1e"
	styles := filepath.Join(ada.WorkDir, ".claude", "output-styles")
	if err := os.MkdirAll(styles, 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\r\nname: Quiet Ada\r\ndescription: speaks little\r\n---\r\n" + marker + ": answer in one short sentence.\r\n"
	if err := os.WriteFile(filepath.Join(styles, "quiet.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := launch.SeatGetenv(env, func(string) string { return "" })
	found, err := character.ListStyles(ada.Kind, ada.WorkDir, getenv)
	if err != nil || len(found) != 1 || found[0].Name != "Quiet Ada" {
		t.Fatalf("ListStyles = %+v, %v", found, err)
	}
	ada.Character = found[0].Name
	r.addAccount(ada)

	first, _ := claudeFirstTurn(t, r, ada)
	if !strings.Contains(first.Preview, `"outputStyle":"Quiet Ada"`) {
		t.Fatalf("the line does not select the style: %s", first.Preview)
	}
	for _, w := range first.Warnings {
		if strings.Contains(w, "character") {
			t.Errorf("launch warning about a style that exists: %s", w)
		}
	}
	exs := r.sessionCalls(first.SessionID)
	for _, ex := range exs {
		if strings.Contains(string(ex.Request.Body), marker) {
			return
		}
	}
	t.Fatalf("none of %d model calls carries the style's body", len(exs))
}
