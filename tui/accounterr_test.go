package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestAccountRefusalsInTheHumansLanguage: a refusal the backend names
// (no secret store for env values, a running seat, an MCP account's kind)
// is said in the UI's language, with the detail it carried (issue 35: the
// env refusal showed in English in a Japanese UI); any other error reads
// as it is.
func TestAccountRefusalsInTheHumansLanguage(t *testing.T) {
	t.Parallel()
	detail := "the OS keyring did not answer or refused (org.freedesktop.DBus.Error.ServiceUnknown)"
	wrapped := fmt.Errorf("%w: %w", ErrNoSecretStore, fmt.Errorf("%s: %s", ErrNoSecretStore.Error(), detail))
	for _, tc := range []struct {
		lang Lang
		err  error
		want []string
		not  string
	}{
		{LangJapanese, wrapped, []string{"環境変数の値を暗号化できません", detail}, "no secret store is reachable"},
		{LangEnglish, wrapped, []string{"env values cannot be sealed", detail}, "no secret store is reachable"},
		{LangJapanese, ErrKindRunning, []string{"席が起動中です。種別を変える前に停止してください。"}, "("},
		{LangJapanese, fmt.Errorf("wrap: %w", ErrKindMCP), []string{"MCP サーバーのアカウントの種別は変えられません"}, ""},
		{LangJapanese, ErrAccountRunning, []string{"先に停止してください"}, ""},
		{LangJapanese, errors.New("disk full"), []string{"disk full"}, ""},
	} {
		e := testEnv(tc.lang)
		got := accountErrText(e, tc.err)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s %v: %q lacks %q", tc.lang, tc.err, got, w)
			}
		}
		if tc.not != "" && strings.Contains(got, tc.not) {
			t.Errorf("%s %v: %q holds %q", tc.lang, tc.err, got, tc.not)
		}
	}
}
