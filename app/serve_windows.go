package app

import (
	"errors"
	"net"
)

// ErrNoServeHere: this build cannot run `pullcept server` yet (Windows'
// named pipe and job escape, docs/serve.md "Windows").
var ErrNoServeHere = errors.New("pullcept server does not run on Windows yet; run pullcept --no-server")

func listenSocket(string) (net.Listener, error) { return nil, ErrNoServeHere }

// ServeSupported: not on Windows yet; plain `pullcept` runs in its own
// process there.
const ServeSupported = false
