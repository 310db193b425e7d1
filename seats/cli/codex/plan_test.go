package codex

import "github.com/pullcept/pullcept/seats/launch"

// codexPlan is an app-server Codex launch's server plan (nil for others).
func codexPlan(l launch.Launch) *ServerPlan {
	p, _ := l.Server.(*ServerPlan)
	return p
}
