// Command funlen is make lint's function-length budget (docs/design.md
// §14): no non-test function over 80 lines, counted as golangci-lint's
// funlen counts them (it runs this same analyzer, ultraware/funlen).
// It lives in a module of its own so the app's go.mod does not carry the
// analysis framework, and it builds in seconds where golangci-lint took
// most of a fresh machine's `make test` (issue 35: 36 of 53 minutes).
package main

import (
	"github.com/ultraware/funlen"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() {
	// 80 lines; no statement limit (-1); comments count as lines.
	singlechecker.Main(funlen.NewAnalyzer(80, -1, false))
}
