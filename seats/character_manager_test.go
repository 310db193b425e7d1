//go:build unix

package seats

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pullcept/pullcept/config"
	"github.com/pullcept/pullcept/seats/character"
	"github.com/pullcept/pullcept/testdata/testkit"
)

// TestManagerCodexCharacterEnv: a Codex seat's process gets its account's
// character as LI_PLUS_OUTPUT_STYLE (#281 hook mode) over an inherited one,
// and a seat without a character does not inherit it (the project's
// default applies). The fake CLI stands in for codex ("--" ends its flags
// before the line's -c and --no-alt-screen).
func TestManagerCodexCharacterEnv(t *testing.T) {
	t.Setenv(character.EnvOutputStyle, "inherited")
	r := newManagerRig(t)
	for _, tc := range []struct {
		id, character, want string
	}{
		{"luna", "character_codex_luna", "character_codex_luna"},
		{"plain", "", ""},
	} {
		envFile := filepath.Join(r.dir, tc.id+"-env.json")
		// "prompt": a word that ends the fake's flags, so the room's own
		// options after it are not read as its flags (Codex refuses "--":
		// its own -c would become the prompt).
		a := r.fakeAccount(t, tc.id, "-env "+config.QuoteWord(envFile)+" -exit 0 prompt")
		hook := false // #281 hook mode: the character in the environment
		a.Kind, a.Character, a.CodexAppServer = config.KindCodexCLI, tc.character, &hook
		// Li+'s file mode: the project has its styles folder.
		if err := os.MkdirAll(filepath.Join(a.WorkDir, ".codex", "output-styles"), 0o755); err != nil {
			t.Fatal(err)
		}
		r.book.put(a)
		if _, err := r.m.Start(managerTopic, a.ID, 100, 30); err != nil {
			t.Fatal(err)
		}
		var env []string
		testkit.Eventually(t, "the fake CLI's env file", func() bool {
			b, err := os.ReadFile(envFile)
			return err == nil && json.Unmarshal(b, &env) == nil
		})
		var got []string
		for _, kv := range env {
			if name, v, _ := strings.Cut(kv, "="); strings.EqualFold(name, character.EnvOutputStyle) {
				got = append(got, v)
			}
		}
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%s: no character, yet %s=%q", tc.id, character.EnvOutputStyle, got)
		case tc.want != "" && (len(got) != 1 || got[0] != tc.want):
			t.Errorf("%s: %s = %q, want [%s]", tc.id, character.EnvOutputStyle, got, tc.want)
		}
	}
}

// TestManagerCodexInlineOutcome: the editor's preview and the start come
// to the same outcome for an inline character (#276, a project without
// Li+'s style files): hook mode refuses it with the same reason in both,
// app-server mode's preview names it.
func TestManagerCodexInlineOutcome(t *testing.T) {
	r := newManagerRig(t)
	a := r.fakeAccount(t, "lin", "-exit 0 prompt")
	hook := false
	a.Kind, a.Character, a.CodexAppServer = config.KindCodexCLI, "character_Lin", &hook
	r.book.put(a)
	line, problems := r.m.Preview(a)
	_, err := r.m.Start(managerTopic, a.ID, 100, 30)
	if line != "" || len(problems) != 1 || err == nil || !strings.Contains(err.Error(), problems[0]) ||
		!strings.Contains(problems[0], character.ErrInlineHookMode.Error()) {
		t.Errorf("hook mode: preview %q, %q; start %v", line, problems, err)
	}
	on := true
	a.CodexAppServer, a.LaunchOptions = &on, ""
	line, problems = r.m.Preview(a)
	if !strings.Contains(line, "\nconversation: inline: character_Lin") || len(launchProblems(problems)) != 0 {
		t.Errorf("app-server mode: preview %q, %q", line, problems)
	}
}
