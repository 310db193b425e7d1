# Pullcept — build, run and test. `make run` starts the app; `make test` is the
# suite CI runs (.ci/run runs `make newcomer` after it).
GO        ?= go
BIN       ?= bin/pullcept
PKGS      := ./...
# Go packages under testdata/ (go's ./... skips testdata): the fake model
# APIs, the fake CLI, the scripted local MCP server, the shared test
# helpers, the real app in tmux (soak, realapp), the docs check and the
# compare bench. Named explicitly so vet, lint and test cover them.
TESTPKGS  := ./testdata/fakeapi/... ./testdata/fakecli/... ./testdata/fakemcp/... ./testdata/testkit/... ./testdata/launchkit/... ./testdata/soak/... ./testdata/realapp/... ./testdata/docscheck/...
BENCHPKG  := ./testdata/bench/
# Domain code (make arch): no UI library, no tui or app. app/localmcp,
# app/sessionops and app/notify live under app but are domain code app
# wires in.
DOMAIN    := room seats sidecar logstore config app/localmcp app/sessionops app/notify
CLIS_DIR  := testdata/clis
FUZZTIME  ?= 20s
BENCHTIME ?= 1s
SOAK      ?= 60s
# The slow factor every test deadline is multiplied by (testdata/testkit.Slow,
# docs/design.md §13): PULLCEPT_TEST_SLOW when set (a positive number), else 1,
# 2 with CI set, raised to the load average per CPU when that is higher (at
# most 8) — the rule testkit follows. go test's -timeout (30 minutes per
# test binary at 1) is scaled by it too, never below 30 minutes.
SLOW_FACTOR = $(shell awk -v s="$$PULLCEPT_TEST_SLOW" -v ci="$$CI" -v n="$$(nproc 2>/dev/null || echo 1)" 'BEGIN { \
  if (s != "") { print s + 0; exit } \
  f = (ci != "") ? 2 : 1; \
  if ((getline l < "/proc/loadavg") > 0) { split(l, a, " "); g = a[1] / n; if (g > 8) g = 8; if (g > f) f = g } \
  print f }')
TEST_TIMEOUT = $(shell awk -v f="$(SLOW_FACTOR)" 'BEGIN { if (f < 1) f = 1; printf "%ds", 1800 * f }')

# Lint tools, pinned, built once into TOOLS (a line each, with the time it
# took: a fresh machine's first build is the slow part). The function-length
# check is ultraware/funlen — the analyzer golangci-lint's funlen runs — in a
# module of its own (.ci/funlen): golangci-lint built from source was 36 of a
# fresh machine's 53 minutes (issue 35); this builds in under a minute.
TOOLS       := bin/tools
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
DEADCODE    := golang.org/x/tools/cmd/deadcode@v0.52.0
GOCYCLO     := github.com/fzipp/gocyclo/cmd/gocyclo@v0.6.0

.PHONY: build run demo test unit vet lint lint-tools subjects fmt-check arch cross clis fuzz bench newcomer clean soak compare wine

build:
	$(GO) build -o $(BIN) .

run: build
	./$(BIN)

# Try Pullcept offline (README "Try it offline"): Pullcept on a temporary
# data directory with three accounts — the pinned Claude Code and Codex
# (`make clis` when missing) against the fake model API on loopback, which
# follows testdata/demo/script.json, and a shell — all removed when it
# quits (DEMO_KEEP=1 keeps them, DEMO_DIR=FOLDER opens a kept folder
# again; testdata/demo/run.sh).
demo: build clis
	$(GO) build -o bin/fakemodel ./testdata/fakeapi/cmd/fakemodel
	bash testdata/demo/run.sh $(BIN) bin/fakemodel

# The real clients and servers the end-to-end tests drive (pinned in
# testdata/clis/package.json): Claude Code, Codex, the MCP inspector CLI and
# the MCP "everything" reference server. The stamp is written after a whole
# `npm ci`, so a checkout that had only some of them (an older package.json)
# installs the rest, and a change of the pins installs again.
CLIS_STAMP := $(CLIS_DIR)/node_modules/.pullcept-clis-installed
clis: $(CLIS_STAMP)
$(CLIS_STAMP): $(CLIS_DIR)/package.json $(CLIS_DIR)/package-lock.json
	cd $(CLIS_DIR) && npm ci --no-audit --no-fund
	touch $@

# The whole suite: formatting, vet, layer rules, the code budgets, cross-builds,
# then every test with -race. One line as each phase starts and one with the
# seconds it took, so a slow phase is named (README "Running the tests").
TEST_PHASES := fmt-check vet arch lint cross clis unit
test:
	@for p in $(TEST_PHASES); do \
	  s=$$(date +%s); echo "== make test: $$p ($$(date +%H:%M:%S))"; \
	  if ! $(MAKE) --no-print-directory $$p; then echo "== make test: $$p FAILED after $$(( $$(date +%s) - s )) s"; exit 1; fi; \
	  echo "== make test: $$p done in $$(( $$(date +%s) - s )) s"; \
	done; echo "== make test: ok"

unit:
	$(GO) test -race -timeout $(TEST_TIMEOUT) $(PKGS) $(TESTPKGS)

vet:
	$(GO) vet $(PKGS) $(TESTPKGS) $(BENCHPKG)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go' 2>/dev/null | grep -v '^$(CLIS_DIR)/' || find . -name '*.go' -not -path './$(CLIS_DIR)/*')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# The layer rules (docs/design.md §1, §14): domain packages (DOMAIN) never
# depend on the UI libraries or on tui or app; tui reaches the domain only
# through room's plain wire types (never seats, sidecar, logstore, config or
# app); app is the only package that imports both tui and a domain package.
UI_LIBS := ^(charm\.land/(bubbletea|lipgloss|bubbles)|github\.com/charmbracelet/(bubbletea|lipgloss|bubbles))
arch:
	@fail=0; for p in $(DOMAIN); do \
	  bad=$$($(GO) list -deps ./$$p/... | grep -E '$(UI_LIBS)|/pullcept/(tui|app)$$' || true); \
	  if [ -n "$$bad" ]; then echo "arch: $$p depends on UI packages:"; echo "$$bad"; fail=1; fi; \
	done; \
	bad=$$($(GO) list -f '{{join .Imports "\n"}}' ./tui/ | grep -E '/pullcept/(seats|sidecar|logstore|config|app)(/|$$)' || true); \
	if [ -n "$$bad" ]; then echo "arch: tui depends on domain packages other than room's types:"; echo "$$bad"; fail=1; fi; \
	both=$$($(GO) list -f '{{.ImportPath}} {{join .Imports " "}}' $(PKGS) | \
	  awk '/\/pullcept\/tui( |$$)/ && / github\.com\/pullcept\/pullcept\/(room|seats|sidecar|logstore|config|app\/localmcp|app\/sessionops|app\/notify)( |\/|$$)/ {print $$1}' | \
	  grep -v -E '/pullcept/(app|tui)$$' || true); \
	if [ -n "$$both" ]; then echo "arch: only app may import both tui and the domain:"; echo "$$both"; fail=1; fi; \
	bad=$$($(GO) list -deps ./app/attachclient/ | grep -E '$(UI_LIBS)|/pullcept/(tui|app|room|seats|sidecar|logstore)(/|$$)' | grep -v -E '/app/attachclient$$|/room/(textcut|blank)$$' || true); \
	if [ -n "$$bad" ]; then echo "arch: app/attachclient (the attach client) carries bytes only; it depends on:"; echo "$$bad"; fail=1; fi; \
	[ $$fail -eq 0 ] && echo "arch: ok"

# Commit subjects are at most 72 characters (git's one-line form: the why
# and the figures go in the body). Checked from main's head when the rule
# came in, d9693d0 (issue 28), to HEAD: older subjects stay as they are.
# Characters, not bytes: UTF-8 continuation bytes are not counted. Skipped,
# saying so, without git, outside a repository (a tarball), or without that
# commit (a shallow clone).
SUBJECT_CUTOFF := d9693d09cf47ccec457670c0c08c30f5f4ca2e52
SUBJECT_MAX    := 72
GIT            ?= git
subjects:
	@if ! command -v $(GIT) >/dev/null 2>&1; then \
	  echo "subjects: skipped: no git"; \
	elif ! $(GIT) rev-parse --git-dir >/dev/null 2>&1; then \
	  echo "subjects: skipped: not a git repository"; \
	elif ! $(GIT) cat-file -e '$(SUBJECT_CUTOFF)^{commit}' 2>/dev/null; then \
	  echo "subjects: skipped: commit $(SUBJECT_CUTOFF) is not in this history"; \
	else \
	  long=$$($(GIT) log --format='%h %s' $(SUBJECT_CUTOFF)..HEAD | while IFS= read -r line; do \
	    n=$$(( $$(printf '%s' "$${line#* }" | LC_ALL=C tr -d '\200-\277' | wc -c) )); \
	    if [ $$n -gt $(SUBJECT_MAX) ]; then echo "  $$n: $$line"; fi; \
	  done); \
	  if [ -n "$$long" ]; then echo "subjects: over $(SUBJECT_MAX) characters (put the detail in the body):"; echo "$$long"; exit 1; fi; \
	  echo "subjects: ok"; \
	fi

# The code budget (docs/design.md §14): staticcheck clean; no function
# unreachable from main (deadcode; test helpers live in _test.go files);
# cyclomatic complexity at most 30 (gocyclo, tests included); no non-test
# function over 80 lines, comments counted (funlen, .ci/funlen); commit
# subjects (subjects, above); and the docs name only paths, identifiers and
# sections that exist (testdata/docscheck, issue 28).
lint: subjects lint-tools
	$(TOOLS)/staticcheck $(PKGS) $(TESTPKGS) $(BENCHPKG)
	@out=$$($(TOOLS)/deadcode $(PKGS)); \
	if [ -n "$$out" ]; then echo "deadcode: unreachable from main:"; echo "$$out"; exit 1; fi
	@out=$$($(TOOLS)/gocyclo -over 30 -ignore '^testdata/clis/' .); \
	if [ -n "$$out" ]; then echo "gocyclo: over 30:"; echo "$$out"; exit 1; fi
	$(TOOLS)/funlen -test=false $(PKGS) $(TESTPKGS) $(BENCHPKG)
	$(GO) run ./testdata/docscheck
	@echo "lint: ok"

# Each tool is built into TOOLS by go install (the module proxy, pinned
# versions; go's build cache makes a rebuild a link). GOFLAGS is cleared so
# a -mod setting meant for the app does not reach the tools' modules.
lint-tools:
	@mkdir -p $(TOOLS); for t in $(STATICCHECK) $(DEADCODE) $(GOCYCLO); do \
	  s=$$(date +%s); GOFLAGS= GOBIN="$$(pwd)/$(TOOLS)" $(GO) install $$t || exit 1; \
	  echo "lint: built $${t%@*} in $$(( $$(date +%s) - s )) s"; \
	done; s=$$(date +%s); \
	GOFLAGS= $(GO) -C .ci/funlen build -o "$$(pwd)/$(TOOLS)/funlen" . || exit 1; \
	echo "lint: built funlen (.ci/funlen) in $$(( $$(date +%s) - s )) s"

cross:
	CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null .
	CGO_ENABLED=0 GOOS=windows GOARCH=arm64 $(GO) build -o /dev/null .
	CGO_ENABLED=0 GOOS=darwin  GOARCH=amd64 $(GO) build -o /dev/null .
	CGO_ENABLED=0 GOOS=darwin  GOARCH=arm64 $(GO) build -o /dev/null .
	CGO_ENABLED=0 GOOS=linux   GOARCH=amd64 $(GO) build -o /dev/null .
	CGO_ENABLED=0 GOOS=linux   GOARCH=arm64 $(GO) build -o /dev/null .
	GOOS=windows GOARCH=amd64 $(GO) vet $(PKGS)
	GOOS=darwin  GOARCH=arm64 $(GO) vet $(PKGS)

# Time-boxed fuzzing of every fuzz target (FUZZTIME each). Seed corpora run in `make test`.
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS) $(TESTPKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; done

# Benchmarks into a benchstat-comparable file (.bench/latest.txt).
bench:
	mkdir -p .bench
	$(GO) test -run '^$$' -bench . -benchmem -count 6 -benchtime $(BENCHTIME) $(PKGS) | tee .bench/latest.txt

# The long load runs (docs/design.md §13): 16 sockets at a combined 800 posts/s for
# SOAK (default 60s) checked end to end, RSS before/after; the hostile
# socket tests with the server's production timeouts and the 1 MB long
# posts; and the real app in tmux with 16 honest seats, a hostile seat running
# every flood and a tokenless user holding connections, while a person types
# (testdata/soak). `make test` runs the short variants.
soak:
	PULLCEPT_SOAK=$(SOAK) $(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) -run '^TestLoadSoak$$' -v ./room/
	PULLCEPT_SOAK=$(SOAK) $(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) -run '^(TestHostile|TestLongPosts)' -v ./room/
	PULLCEPT_SOAK=$(SOAK) $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '^TestSoakRealApp$$' -v ./testdata/soak/

# Side by side with tmux and claude-squad's polling (docs/design.md §13): the recorded
# 50 MB ANSI stream through our seat vs a tmux pane, and the idle CPU of 8
# seats vs capture-pane polling; prints the ratios (testdata/bench/compare.sh).
compare:
	bash testdata/bench/compare.sh

# The Windows build and every package's Windows tests under Wine, with the
# rig's two documented Wine workarounds (testdata/wine/run.sh; needs wine,
# wine64 and binutils-mingw-w64-x86-64, which .ci/run installs).
wine:
	bash testdata/wine/run.sh

# The newcomer test: Pullcept in tmux with a real Claude Code seat against the
# fake model API, driven only by keys (testdata/newcomer.sh).
newcomer: clis
	bash testdata/newcomer.sh

clean:
	rm -rf bin .bench
