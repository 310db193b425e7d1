package localmcp

import "syscall"

// dieWithParent makes the server die with Pullcept however Pullcept ends
// (a crash, SIGKILL, its terminal closed): its stdin closing is not enough
// — the real github-webhook-mcp bridge ignores it, its WebSocket keeps node
// alive (measured) — and Close never runs then. Linux only (Pdeathsig).
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
