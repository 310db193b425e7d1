#!/usr/bin/env bash
# Side by side with what users would pick instead (docs/design.md §13): `make compare`.
#
#   1. the same ~50 MB recorded ANSI stream (colours, CJK, cursor movement,
#      a real Claude Code session woven in) through our seat emulator and
#      pane render step, and through a tmux pane;
#   2. the CPU of 8 idle seats for 30 s in the real pullcept app, and of
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
go test -count=1 -timeout 5m -run '^TestCompare(Stream|Idle)$' -v ./testdata/bench/ >.bench/compare.txt 2>&1 || status=$?
# The app's screen is logged for diagnosis; show only the figures.
grep -E '^\s+compare_test\.go:[0-9]+: (stream|ours|tmux|final|idle|RATIO)|^(--- |ok|FAIL|PASS)' .bench/compare.txt || true
if [ $status -ne 0 ]; then
  echo "compare: failed; the full output is in .bench/compare.txt" >&2
fi
exit $status
