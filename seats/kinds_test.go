package seats

import "github.com/pullcept/pullcept/config"

// buildLaunch is BuildLaunch with the Adapter of in's kind (nil for a kind
// that does not launch).
func buildLaunch(in LaunchInput) (Launch, error) {
	var k Kind
	if ad, ok := newKinds(ManagerOptions{})[in.Account.Kind]; ok {
		k = ad
	}
	return BuildLaunch(in, k)
}

// codexPlan is an app-server Codex launch's server plan (nil for others).
func codexPlan(l Launch) *CodexServerPlan {
	p, _ := l.Server.(*CodexServerPlan)
	return p
}

// prepareLaunch is PrepareLaunch with the Adapter of in's kind.
func prepareLaunch(in LaunchInput) (Launch, error) {
	return PrepareLaunch(in, newKinds(ManagerOptions{})[in.Account.Kind])
}

// transcriptExists reports whether a's kind says its conversation id
// resumes in the environment getenv.
func transcriptExists(a config.Account, getenv func(string) string, id string) (bool, error) {
	ad, ok := newKinds(ManagerOptions{})[a.Kind]
	if !ok {
		return false, nil
	}
	c, err := ad.Conversation(a, id, getenv)
	return c == ConversationResumes && a.Kind != config.KindCLI, err
}

// conversationOf is what a's kind says of a conversation it has no file of.
func conversationOf(a config.Account) Conversation {
	c, _ := newKinds(ManagerOptions{})[a.Kind].Conversation(a, "id", func(string) string { return "" })
	return c
}
