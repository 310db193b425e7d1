package claude

import (
	"testing"
	"time"
	"unicode"

	"github.com/pullcept/pullcept/seats/cli"
)

// FuzzHookAndStatusBodies: any hook or status line body a seat's CLI sends
// is read without a panic; percentages are unknown or plausible; a tool
// name is short and free of controls; a PermissionRequest always holds.
func FuzzHookAndStatusBodies(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"model":{"display_name":"Opus"},"context_window":{"used_percentage":12},"rate_limits":{"five_hour":{"used_percentage":1e300,"resets_at":-1}}}`,
		`{"hook_event_name":"PostToolUse","tool_name":7}`, "not json", `[]`, `{"tool_input":}`,
	} {
		f.Add(s)
	}
	now := time.Unix(1796100000, 0)
	f.Fuzz(func(t *testing.T, body string) {
		st, _ := ParseStatus([]byte(body))
		for _, p := range []*float64{st.Context, st.FiveHour, st.Weekly} {
			if p != nil && (*p < 0 || *p > cli.MaxPercent || *p != *p) {
				t.Fatalf("implausible percentage %v from %q", *p, body)
			}
		}
		for _, ev := range []string{hookUserPromptSubmit, hookPreToolUse, hookPostToolUse, hookPermissionRequest, hookStop} {
			step := applyHook(cli.Activity{}, cli.PermWait{}, ev, []byte(body), now)
			if len([]rune(step.Next.Tool)) > cli.MaxToolName+1 {
				t.Fatalf("tool name %q kept whole", step.Next.Tool)
			}
			for _, r := range step.Next.Tool {
				if unicode.IsControl(r) {
					t.Fatalf("tool name %q has a control", step.Next.Tool)
				}
			}
			if p, _ := step.Wait.Holds(); ev == hookPermissionRequest && !p {
				t.Fatalf("PermissionRequest %q did not hold", body)
			}
		}
	})
}
