#!/usr/bin/env bash
# Try Pullcept offline: `make demo` (README "Try it offline"; docs/design.md
# §13 "The demo"). It starts the fake model API on loopback following
# testdata/demo/script.json, prepares an isolated, offline Claude Code and
# Codex CLI (the pinned ones of testdata/clis: `make clis`), writes a
# temporary data directory with three accounts — Claude (Claude Code),
# Codex (Codex CLI) and Shell (your shell, a generic CLI) — and a small
# project folder they all work in, then runs Pullcept in this terminal as
# plain `pullcept` does: a server keeps the seats, this window shows them.
# Close the window (or Ctrl+Q, Detach) and the seats keep running; the
# banner and the last words say how to attach again. When the server ends
# (Ctrl+Q, Stop everything, in any attached window), the fake model stops
# and the temporary folder is removed (DEMO_KEEP=1 keeps it, and says how
# to open it again: DEMO_DIR=FOLDER, which is then never removed).
#
#   testdata/demo/run.sh PULLCEPT FAKEMODEL   (the two binaries, built)
#
# Nothing reaches beyond this machine: the CLIs talk to the fake only, and
# any other request of theirs goes to the fake as their proxy, which
# refuses it (testdata/fakeapi, baseEnv).
set -euo pipefail

die() { echo "demo: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: [DEMO_KEEP=1] [DEMO_DIR=FOLDER] $0 PULLCEPT FAKEMODEL"
pullcept=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fakemodel=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
clis="$root/testdata/clis/node_modules/.bin"
for f in "$pullcept" "$fakemodel"; do [ -x "$f" ] || die "$f is not built"; done
for f in claude codex; do [ -x "$clis/$f" ] || die "$clis/$f missing: run 'make clis'"; done
shell=$(command -v bash)

# served: this demo's server answers (pullcept ls finds it).
served() { "$pullcept" ls --data "$data" >/dev/null 2>&1; }
# server_pid: the pid server.json names; "" without one (a server that
# ended removed it).
server_pid() { { tr -d ' \n' <"$data/server.json"; } 2>/dev/null | sed -n 's/.*"pid":\([0-9][0-9]*\).*/\1/p' || true; }

keep=${DEMO_KEEP:-}
if [ -n "${DEMO_DIR:-}" ]; then
  # A folder an earlier demo kept: the same accounts, topics and
  # conversations, with the fake model started again. Never removed.
  work=$(cd "$DEMO_DIR" 2>/dev/null && pwd) || die "$DEMO_DIR: no such folder"
  [ -f "$work/data/config.json" ] && [ -d "$work/cli/codex-home" ] && [ -d "$work/project" ] ||
    die "$work is no folder a demo kept (DEMO_KEEP=1)"
  keep=1
  data="$work/data"
  ! served || die "its Pullcept still runs: $pullcept attach --data $data"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/pullcept-demo.XXXXXX")
  data="$work/data"
fi
[ "$keep" = 1 ] || keep=""
# Paths go into config.json as JSON strings: refuse one a JSON string
# would need more than \\ and \" for.
case "$work$root$shell" in *[[:cntrl:]]*) die "a path holds a control character: $work $root" ;; esac
fake_pid=""
app_pid=""
handed=""
# finish stops the fake model and removes the folder (unless kept); it
# writes nothing, as the terminal may be gone.
finish() {
  [ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null || true
  [ -n "$keep" ] && return 0
  # A CLI may still be writing its config while it exits: retry a moment.
  for _ in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$work" 2>/dev/null && break; sleep 0.5; done
}
cleanup() {
  status=$?
  trap - EXIT INT TERM HUP
  [ -n "$handed" ] && exit "$status" # the watcher below ends it all
  [ -n "$app_pid" ] && kill -TERM "$app_pid" 2>/dev/null || true
  [ $status -eq 0 ] || keep=1 # what went wrong stays readable
  finish
  wait 2>/dev/null || true
  # The terminal may be gone (a closed window): nothing here may fail on
  # writing to it.
  if [ -n "$keep" ]; then
    {
      echo "demo: kept $work"
      echo "  the fake model's log: $work/fake.log"
      [ ! -f "$data/config.json" ] || echo "  open it again: make demo DEMO_DIR=$work"
    } 2>/dev/null || true
  else
    echo "demo: stopped the seats and the fake model, removed $work" 2>/dev/null || true
  fi
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

if [ -z "${DEMO_DIR:-}" ]; then
  mkdir -p "$data" "$work/project" "$work/cli/codex-home"
  cp -R "$root/testdata/demo/project/." "$work/project/"
  # Codex runs its commands unsandboxed here: its sandbox needs bubblewrap.
  # Without a system bwrap Codex 0.169.0 warns ("could not find bubblewrap
  # on PATH") and uses its own; with one, every command failed ("bwrap:
  # execvp codex-linux-sandbox"), as Codex makes no helper for it under a
  # temporary directory, where this CODEX_HOME is. The demo's model is the
  # scripted fake, which runs only ./greet.sh and ls (docs/design.md §13
  # "The demo"). The fake keeps this key when it prepares the file.
  echo 'sandbox_mode = "danger-full-access"' >"$work/cli/codex-home/config.toml"
fi
rm -f "$work/env.sh"
# The fake outlives this window when the seats do: a closed window's
# hangup does not end it (the watcher below does). It is ignored here
# before the fork, as a child could get the hangup before its own trap.
trap '' HUP
"$fakemodel" -addr 127.0.0.1:0 -script "$root/testdata/demo/script.json" \
  -claude-dir "$work/cli" -codex-dir "$work/cli" -trust "$work/project" -env-out "$work/env.sh" \
  </dev/null >>"$work/fake.out" 2>>"$work/fake.log" &
fake_pid=$!
trap 'exit 130' HUP
for _ in $(seq 150); do
  grep -qs CODEX_HOME "$work/env.sh" && break
  kill -0 "$fake_pid" 2>/dev/null || { cat "$work/fake.log" >&2; die "the fake model did not start"; }
  sleep 0.2
done
grep -qs CODEX_HOME "$work/env.sh" || die "the fake model did not prepare the CLIs in 30 s"

json() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
project=$(json "$work/project")
[ -n "${DEMO_DIR:-}" ] || cat >"$data/config.json" <<EOF
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

ending="Ctrl+Q, Stop everything ends it all and removes this folder (DEMO_KEEP=1 keeps it)."
[ -z "$keep" ] || ending="Ctrl+Q, Stop everything ends it all; this folder is kept."
cat <<EOF
Pullcept demo: offline, a scripted fake model, data in $work.
  Start a seat: Tab to the accounts panel, the row, s.  Then type:
  @Claude run greet.sh   -> a permission card (F7, then y allows)
  @Claude restart        -> Claude restarts its own seat (a session operation)
  Close this window and the seats keep running; this shows them again:
    $pullcept attach --data $data
  $ending
EOF

# Pullcept runs with the prepared environment only (no API key of yours
# reaches a CLI), plus what says which terminal this is (app/serve.go
# clientEnv). Plain pullcept: it starts this data directory's server in a
# session of its own, which the window's hangup never reaches, and shows
# it here.
vars=()
for v in TERM COLORTERM NO_COLOR CLICOLOR_FORCE TERM_PROGRAM WT_SESSION LANG LC_ALL LC_MESSAGES LC_CTYPE TZ \
  PULLCEPT_LANGUAGE TMUX LC_TERMINAL KITTY_WINDOW_ID WEZTERM_PANE GHOSTTY_RESOURCES_DIR KONSOLE_VERSION VTE_VERSION; do
  [ -n "${!v:-}" ] && vars+=("$v=${!v}")
done
# Pullcept runs as a child this script waits for, so a signal reaches the
# script at once (a closed window's SIGHUP goes to this script, not to
# Pullcept): it is passed on. Its input is this terminal (a background
# job's would be /dev/null).
env -i bash -c 'source "$1"; bin=$2; data=$3; shift 3; export "$@"; exec "$bin" --data "$data"' demo "$work/env.sh" \
  "$pullcept" "$data" ${vars[@]+"${vars[@]}"} PULLCEPT_HOME="$data" <&0 &
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
trap 'exit 130' INT TERM HUP

# This window let go. A server that stops (Stop everything) stops
# answering within seconds and ends once its seats stopped; one that runs
# on (Detach, a closed window) still answers a second later.
pid=$(server_pid)
if [ -n "$pid" ] && served && sleep 1 && served; then
  # The watcher outlives this script and the window (the hangup ignored
  # before the fork): it ends the fake model and removes the folder once
  # the server ended.
  trap '' HUP INT
  (
    while kill -0 "$pid" 2>/dev/null; do sleep 1; done
    finish
  ) </dev/null >/dev/null 2>&1 &
  handed=1
  {
    echo "demo: Pullcept runs on with its seats and the fake model; this shows it again:"
    echo "  $pullcept attach --data $data"
    if [ -n "$keep" ]; then
      echo "Ctrl+Q, Stop everything there ends it; the folder is kept (make demo DEMO_DIR=$work)."
    else
      echo "Ctrl+Q, Stop everything there ends it and removes $work."
    fi
  } 2>/dev/null || true
  exit 0
fi
# The server ends: its seats stop first (as pullcept kill-server waits).
for _ in $(seq 240); do
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
  sleep 0.5
done
# A server that ran and ended is no failure of the demo, however this
# window let go (a closed window ends the client with 129).
[ -z "$pid" ] || status=0
exit $status
