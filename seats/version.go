package seats

import (
	"context"
	"os"
	"path/filepath"

	"github.com/pullcept/pullcept/seats/cli"
	"github.com/pullcept/pullcept/seats/launch"
)

// checkVersion reads the version of the CLI a seat of a kind that needs one
// would run (cli.Versioned) before anything of the start is written, and
// refuses a CLI older than its launch line needs (a cli.TooOldError naming
// the version it needs, spec «対応基準は Codex CLI 0.160.0 以上であり、古い
// CLI では起動前に診断を返す»). A CLI that is not found is left to the
// spawn, which says so; a version that cannot be read (the command failed,
// printed none, or gave no answer in time) is no refusal: the seat starts,
// and its row says the check was not made (StartResult.VersionUnread).
// The version is read once per executable file (cli.VersionBook), with the
// seat's environment as the account sets it and never a room token.
func (m *Manager) checkVersion(ctx context.Context, p *startPlan) error {
	vk, ok := p.adapter.(cli.Versioned)
	if !ok {
		return nil
	}
	need := vk.Needs(p.acct)
	path := launch.ResolveCommandOr(p.acct.Command)
	if !filepath.IsAbs(path) {
		return nil // not on PATH (the spawn says so) or relative
	}
	if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		return nil
	}
	env := append(launch.BaseEnv(m.opts.Environ()), p.openEnv...)
	v, err := m.versions.Read(ctx, path, env)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // the human stopped the start
		}
		p.res.VersionUnread = err.Error()
		m.logger.Warn("CLI version not read; the seat starts without the check", "topic", p.topic,
			"account", p.account, "cli", path, "err", err)
		return nil
	}
	p.res.CLIVersion = need.CLI + " " + v.String()
	return need.Check(path, v)
}
