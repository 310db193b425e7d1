#!/usr/bin/env bash
# Try Pullcept offline: `make demo` (README "Try it offline"; docs/design.md
# §13 "The demo"). It starts the fake model API on loopback following
# testdata/demo/script.json, prepares an isolated, offline Claude Code and
# Codex CLI (the pinned ones of testdata/clis: `make clis`), writes a
# temporary data directory with three accounts — Claude (Claude Code),
# Codex (Codex CLI) and Shell (your shell, a generic CLI) — and a small
# project folder they all work in, then runs Pullcept in this terminal.
# When Pullcept ends (Ctrl+Q, or the window closed), its seats are
# stopped, the fake model too, and the temporary folder is removed
# (DEMO_KEEP=1 keeps it).
#
#   testdata/demo/run.sh PULLCEPT FAKEMODEL   (the two binaries, built)
#
# Nothing reaches beyond this machine: the CLIs talk to the fake only, and
# any other request of theirs goes to the fake as their proxy, which
# refuses it (testdata/fakeapi, baseEnv).
set -euo pipefail

die() { echo "demo: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: $0 PULLCEPT FAKEMODEL"
pullcept=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fakemodel=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
clis="$root/testdata/clis/node_modules/.bin"
for f in "$pullcept" "$fakemodel"; do [ -x "$f" ] || die "$f is not built"; done
for f in claude codex; do [ -x "$clis/$f" ] || die "$clis/$f missing: run 'make clis'"; done
shell=$(command -v bash)

work=$(mktemp -d "${TMPDIR:-/tmp}/pullcept-demo.XXXXXX")
# Paths go into config.json as JSON strings: refuse one a JSON string
# would need more than \\ and \" for.
case "$work$root$shell" in *[[:cntrl:]]*) die "a path holds a control character: $work $root" ;; esac
fake_pid=""
app_pid=""
cleanup() {
  status=$?
  trap - EXIT INT TERM HUP
  [ -n "$app_pid" ] && kill -TERM "$app_pid" 2>/dev/null || true
  [ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  # The terminal may be gone (a closed window): nothing here may fail on
  # writing to it.
  if [ "${DEMO_KEEP:-}" = 1 ] || [ $status -ne 0 ]; then
    echo "demo: kept $work (the fake model's log: $work/fake.log)" 2>/dev/null || true
  else
    # A CLI may still be writing its config while it exits: retry a moment.
    for _ in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$work" 2>/dev/null && break; sleep 0.5; done
    echo "demo: stopped the seats and the fake model, removed $work" 2>/dev/null || true
  fi
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mkdir -p "$work/data" "$work/project" "$work/cli/codex-home"
cp -R "$root/testdata/demo/project/." "$work/project/"
# Codex runs its commands unsandboxed here: its sandbox needs bubblewrap.
# Without a system bwrap Codex 0.169.0 warns ("could not find bubblewrap
# on PATH") and uses its own; with one, every command failed ("bwrap:
# execvp codex-linux-sandbox"), as Codex makes no helper for it under a
# temporary directory, where this CODEX_HOME is. The demo's model is the
# scripted fake, which runs only ./greet.sh and ls (docs/design.md §13
# "The demo"). The fake keeps this key when it prepares the file.
echo 'sandbox_mode = "danger-full-access"' >"$work/cli/codex-home/config.toml"
"$fakemodel" -addr 127.0.0.1:0 -script "$root/testdata/demo/script.json" \
  -claude-dir "$work/cli" -codex-dir "$work/cli" -trust "$work/project" -env-out "$work/env.sh" \
  >"$work/fake.out" 2>"$work/fake.log" &
fake_pid=$!
for _ in $(seq 150); do
  grep -qs CODEX_HOME "$work/env.sh" && break
  kill -0 "$fake_pid" 2>/dev/null || { cat "$work/fake.log" >&2; die "the fake model did not start"; }
  sleep 0.2
done
grep -qs CODEX_HOME "$work/env.sh" || die "the fake model did not prepare the CLIs in 30 s"

json() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
project=$(json "$work/project")
cat >"$work/data/config.json" <<EOF
{
  "accounts": [
    {"id": "admin", "name": "You", "kind": "admin"},
    {"id": "claude", "name": "Claude", "kind": "claude_code", "cwd": $project,
     "command": $(json "$clis/claude"), "permission_mode": "manual"},
    {"id": "codex", "name": "Codex", "kind": "codex_cli", "cwd": $project, "command": $(json "$clis/codex")},
    {"id": "shell", "name": "Shell", "kind": "cli", "cwd": $project, "command": $(json "$shell")}
  ]
}
EOF

cat <<EOF
Pullcept demo: offline, a scripted fake model, data in $work.
  Start a seat: Tab to the accounts panel, the row, s.  Then type:
  @Claude run greet.sh   -> a permission card (F7, then y allows)
  @Claude restart        -> Claude restarts its own seat (a session operation)
  Ctrl+Q quits; everything here is removed then (DEMO_KEEP=1 keeps it).
EOF

# Pullcept runs with the prepared environment only (no API key of yours
# reaches a CLI), plus what says which terminal this is (app/serve.go
# clientEnv).
keep=()
for v in TERM COLORTERM NO_COLOR CLICOLOR_FORCE TERM_PROGRAM WT_SESSION LANG LC_ALL LC_MESSAGES LC_CTYPE TZ \
  PULLCEPT_LANGUAGE TMUX LC_TERMINAL KITTY_WINDOW_ID WEZTERM_PANE GHOSTTY_RESOURCES_DIR KONSOLE_VERSION VTE_VERSION; do
  [ -n "${!v:-}" ] && keep+=("$v=${!v}")
done
# --no-server: the seats live as long as this window (Ctrl+Q quits), as
# everything here is removed when it closes. Pullcept runs as a child this
# script waits for, so a signal reaches the script at once (a closed
# window's SIGHUP goes to this script, not to Pullcept): it is passed on,
# Pullcept stops its seats, and the cleanup above runs. Its input is this
# terminal (a background job's would be /dev/null).
env -i bash -c 'source "$1"; bin=$2; shift 2; export "$@"; exec "$bin" --no-server' demo "$work/env.sh" "$pullcept" \
  ${keep[@]+"${keep[@]}"} PULLCEPT_HOME="$work/data" <&0 &
app_pid=$!
trap 'kill -HUP "$app_pid" 2>/dev/null || true' HUP
trap 'kill -TERM "$app_pid" 2>/dev/null || true' INT TERM
while :; do
  set +e
  wait "$app_pid"
  status=$?
  set -e
  kill -0 "$app_pid" 2>/dev/null || break
done
app_pid=""
exit $status
