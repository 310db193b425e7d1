#!/usr/bin/env bash
# Side by side with what users would pick instead (docs/design.md §13): `make compare`.
#
#   1. two ~50 MB streams through our seat emulator and pane render step and
#      through a tmux pane: the recorded mixed stream (colours, CJK, cursor
#      movement, a real Claude Code session woven in) and a line flood (short
#      lines of Go source, as `while :; do cat room/hub.go; done` prints them);
#      throughput and CPU per MB, each against tmux's;
#   2. key echo in a seat running cat, alone and beside a seat flooding
#      lines (one flooding seat must not slow typing into another), and in
#      the real pullcept app's input bar at 200×50, alone and beside a shown
#      pane whose seat floods lines (issue 36: p95 within 2 ms of alone);
#   3. the CPU of 8 idle seats for 30 s in the real pullcept app, and of
#      claude-squad's way (tmux capture-pane polling of 8 sessions).
#
# Both run in one `go test` of ./testdata/bench (Linux, tmux on PATH) and stay
# on this machine; the whole run is bounded by -timeout. The figures and the
# RATIO lines are printed at the end and kept in .bench/compare.txt.
# PULLCEPT_COMPARE_MB and PULLCEPT_COMPARE_IDLE shrink the runs for a quick look.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v tmux >/dev/null || { echo "compare: tmux is not installed" >&2; exit 1; }
mkdir -p .bench
status=0
go test -count=1 -timeout 10m -run '^TestCompare(Stream|Echo|InputEcho|Idle)$' -v ./testdata/bench/ >.bench/compare.txt 2>&1 || status=$?
# The app's screen is logged for diagnosis; show only the figures.
grep -E '^\s+[a-z_]+_test\.go:[0-9]+: (stream|ours|tmux|final|echo|input|idle|RATIO)|^(--- |ok|FAIL|PASS)' .bench/compare.txt || true
if [ $status -ne 0 ]; then
  echo "compare: failed; the full output is in .bench/compare.txt" >&2
fi
exit $status
