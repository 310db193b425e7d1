#!/usr/bin/env bash
# The newcomer test (docs/design.md §10): start `pullcept` in tmux with a real Claude Code
# seat against the fake model API, use it only through keys a person would
# press (tmux send-keys), and read only what a person would see
# (tmux capture-pane). Run it with `make newcomer`; it needs `make clis` and
# tmux. Everything stays on loopback; every wait has a deadline.
#
#   1. start Pullcept with one Claude Code account, start its seat (participants: s)
#   2. type "@" + part of the seat's name, Tab, a message, Enter
#   3. see the seat's reply row in the chat, and the tagged input in the seat's pane
#   4. the seat's pane shows nothing about the outer tmux; an unknown @name is warned of
#      while typing; Ctrl+C clears the input and never quits; Up recalls the last post
#   5. create a second topic (ctrl+n); from it find a post of the first (ctrl+p) and jump there;
#      switch topics (alt+up / alt+down), seat still running
#   6. pullcept export writes the first topic as Markdown
#   7. a second seat prints a counter; close the window: pullcept ls lists both seats running and
#      the counter grows; pullcept attach in two new windows shows the chat; a post from one
#      reaches Claudia and her reply shows in both; Ctrl+Q -> detach in one leaves the other;
#      pullcept kill-server stops both seats and the server and removes the socket (docs/serve.md)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

claude_bin="$root/testdata/clis/node_modules/.bin/claude"
[ -x "$claude_bin" ] || { echo "newcomer: $claude_bin missing: run 'make clis'" >&2; exit 1; }
command -v tmux >/dev/null || { echo "newcomer: tmux is not installed" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pullcept-newcomer.XXXXXX")
sock="pullcept-newcomer-$$"
fake_pid=""
cleanup() {
  status=$?
  if [ $status -ne 0 ] && tmux -L "$sock" has-session -t nc 2>/dev/null; then
    echo "---- last screen ----" >&2
    tmux -L "$sock" capture-pane -t nc -p >&2 || true
    echo "---- seat panes ----" >&2
    tmux -L "$sock" send-keys -t nc C-t 2>/dev/null && sleep 1 && tmux -L "$sock" capture-pane -t nc -p >&2 || true
    echo "---- fake model ----" >&2
    tail -20 "$work/fake.err" >&2 || true
  fi
  # Pullcept's server outlives its windows: stop it (and its seats) first.
  "$work/pullcept" kill-server --data "$work/data" >/dev/null 2>&1 || true
  tmux -L "$sock" kill-server 2>/dev/null || true
  [ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ $status -eq 0 ]; then
    # The seat's CLI may still be writing its config while it exits after the
    # tmux server's hangup: retry the removal for a few seconds.
    for _ in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$work" 2>/dev/null && break; sleep 0.5; done
  else
    echo "newcomer: kept $work for inspection" >&2
  fi
  exit $status
}
trap cleanup EXIT

go build -o "$work/pullcept" .
go build -o "$work/fakemodel" ./testdata/fakeapi/cmd/fakemodel

mkdir -p "$work/seat" "$work/data"
"$work/fakemodel" -addr 127.0.0.1:0 -claude-dir "$work/cli" -trust "$work/seat" -env-out "$work/env.sh" \
  >"$work/fake.out" 2>"$work/fake.err" &
fake_pid=$!

# Every wait's seconds are scaled by the slow factor, as the Go tests'
# deadlines are (testdata/testkit.Slow, docs/design.md §13): PULLCEPT_TEST_SLOW
# when set, else 1 (2 with CI set), raised to the load average per CPU (at
# most 8).
slow=$(awk -v s="${PULLCEPT_TEST_SLOW:-}" -v ci="${CI:-}" -v n="$(nproc 2>/dev/null || echo 1)" 'BEGIN {
  if (s != "") { if (s !~ /^ *[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)? *$/ || s + 0 <= 0) exit 1; print s + 0; exit }
  f = (ci != "") ? 2 : 1
  if ((getline l < "/proc/loadavg") > 0) { split(l, a, " "); g = a[1] / n; if (g > 8) g = 8; if (g > f) f = g }
  print f }') || { echo "newcomer: PULLCEPT_TEST_SLOW=$PULLCEPT_TEST_SLOW: want a positive number" >&2; exit 1; }
echo "newcomer: waits scaled ×$slow"
# deadline SECONDS: the time SECONDS (scaled) from now.
deadline() { echo $(( $(date +%s) + $(awk -v s="$1" -v f="$slow" 'BEGIN { printf "%d", s * f + 0.999 }') )); }
wait_file() {
  local end; end=$(deadline "$2")
  until [ -s "$1" ]; do
    [ "$(date +%s)" -lt "$end" ] || { echo "newcomer: timed out waiting for $1" >&2; return 1; }
    sleep 0.2
  done
}
screen() { tmux -L "$sock" capture-pane -t nc -p; }
wait_screen() { # PATTERN SECONDS WHAT
  local end; end=$(deadline "$2")
  until screen | grep -qF -- "$1"; do
    [ "$(date +%s)" -lt "$end" ] || { echo "newcomer: timed out waiting for: $3 ($1)" >&2; return 1; }
    sleep 0.3
  done
  echo "ok: $3"
}
wait_gone() { # PATTERN SECONDS WHAT
  local end; end=$(deadline "$2")
  while screen | grep -qF -- "$1"; do
    [ "$(date +%s)" -lt "$end" ] || { echo "newcomer: timed out waiting for: $3 (still: $1)" >&2; return 1; }
    sleep 0.3
  done
  echo "ok: $3"
}
wait_env() {
  local end; end=$(deadline 30)
  until [ -s "$work/env.sh" ] && grep -q ANTHROPIC_BASE_URL "$work/env.sh"; do
    [ "$(date +%s)" -lt "$end" ] || { echo "newcomer: fake model did not start" >&2; cat "$work/fake.err" >&2; return 1; }
    sleep 0.2
  done
}
wait_env

cat >"$work/data/config.json" <<EOF
{
  "accounts": [
    {"id": "admin", "name": "Alice", "kind": "admin"},
    {"id": "claudia", "name": "Claudia", "kind": "claude_code", "cwd": "$work/seat", "command": "$claude_bin"},
    {"id": "counter", "name": "Counter", "kind": "cli", "cwd": "$work/seat", "command": "$work/counter.sh"}
  ]
}
EOF
# A seat that only prints a counter (and keeps it in a file): it shows the
# seats run on while no window is attached.
cat >"$work/counter.sh" <<EOF
#!/bin/sh
i=0
while :; do i=\$((i+1)); echo "tick \$i"; echo \$i >"$work/count.new"; mv "$work/count.new" "$work/count"; sleep 0.2; done
EOF
chmod +x "$work/counter.sh"

# Start Pullcept in a 200x50 terminal, with the Claude environment the fake prepared.
tmux -L "$sock" new-session -d -s nc -x 200 -y 50 \
  "bash -c 'source \"$work/env.sh\"; export PULLCEPT_HOME=\"$work/data\" TERM=xterm-256color; exec \"$work/pullcept\"'"
wait_screen "Claudia" 20 "the participant panel lists the Claude Code account"

# Focus the participants panel (Tab cycles input → chat → topics → accounts;
# the focused row is marked "›"), move to Claudia and start her seat.
for _ in 1 2 3 4 5; do
  screen | grep -q "› Alice\|› Claudia" && break
  tmux -L "$sock" send-keys -t nc Tab
  sleep 0.3
done
wait_screen "› Alice" 5 "the accounts panel has focus"
tmux -L "$sock" send-keys -t nc Down
wait_screen "› Claudia" 5 "Claudia's row is selected"
tmux -L "$sock" send-keys -t nc s
wait_screen "running" 60 "Claudia's seat is running"
wait_screen "· 2 · F1 help" 60 "Claudia's sidecar joined the room (the room counts two)"
# The Counter, the next row: it never joins the room (a plain program).
tmux -L "$sock" send-keys -t nc Down
wait_screen "› Counter" 5 "Counter's row is selected"
tmux -L "$sock" send-keys -t nc s
wait_file "$work/count" 30
echo "ok: the Counter's seat runs"
tmux -L "$sock" send-keys -t nc Up
wait_screen "› Claudia" 5 "back on Claudia's row"

# Back to the input bar: "@" + part of the name, Tab completes, then the message.
tmux -L "$sock" send-keys -t nc Escape
# A key right after Esc would arrive as Alt+key: wait until the app took it.
wait_gone "› Claudia" 5 "the accounts panel lets the focus go"
tmux -L "$sock" send-keys -t nc -l "@Cla"
wait_screen "@Cla" 5 "the input shows the partial mention"
tmux -L "$sock" send-keys -t nc Tab
tmux -L "$sock" send-keys -t nc -l "please review the parser"
tmux -L "$sock" send-keys -t nc Enter
wait_screen "→ Claudia" 10 "the admin's post is addressed to Claudia"
wait_screen "reply to: please review the parser" 120 "Claudia's reply row appears in the chat"

# The seat's pane shows the tagged input that was typed into Claude Code,
# and nothing Claude Code says about an outer tmux (the seat's terminal is
# Pullcept's, not the tmux this test runs Pullcept in).
tmux -L "$sock" send-keys -t nc C-t
wait_screen "[pullcept]" 20 "the seat pane shows the tagged input"
if screen | grep -q "focus-events"; then
  echo "newcomer: Claude Code's pane talks about tmux's focus-events" >&2; exit 1
fi
echo "ok: the seat's pane says nothing of the outer tmux"

# A name nobody in the room has: the input bar says so while typing.
tmux -L "$sock" send-keys -t nc -l "@Zed can you check"
wait_screen "Zed is not in this room" 10 "the input bar warns of an unknown @name"
tmux -L "$sock" send-keys -t nc C-c
wait_gone "Zed is not in this room" 10 "Ctrl+C cleared the input"
tmux -L "$sock" send-keys -t nc C-c
wait_screen "Nothing to clear" 10 "Ctrl+C on an empty input keeps the app"

# Up on the empty input recalls the last post, its @name in front.
tmux -L "$sock" send-keys -t nc Up
wait_screen "@Claudia please review the parser" 10 "Up recalls the previous post"
tmux -L "$sock" send-keys -t nc C-c

# A second topic, then back: the seat keeps running.
tmux -L "$sock" send-keys -t nc C-n
wait_screen "New topic" 10 "a second topic opened"
tmux -L "$sock" send-keys -t nc -l "second topic here"
tmux -L "$sock" send-keys -t nc Enter
wait_screen "second topic here" 10 "the second topic has its own post"
# Find a post of the first topic from the second: Ctrl+P searches every
# topic's posts, Enter jumps to it.
tmux -L "$sock" send-keys -t nc C-p
wait_screen "Find a topic or a post" 10 "the finder opened"
tmux -L "$sock" send-keys -t nc -l "review the parser"
wait_screen "— Alice: " 20 "the finder lists the post in the first topic (its speaker shown)"
tmux -L "$sock" send-keys -t nc Enter
wait_screen "please review the parser" 10 "Enter jumped to the post in the first topic"
# Alt+Up / Alt+Down switch topics.
tmux -L "$sock" send-keys -t nc M-Up
wait_screen "second topic here" 10 "switched to the second topic"
tmux -L "$sock" send-keys -t nc M-Down
wait_screen "please review the parser" 10 "switched back to the first topic"
# Her row now says what her CLI reported last (idle after its Stop hook), so
# the room's head count on the status line says she is still there.
wait_screen "· 2 · F1 help" 10 "Claudia's seat kept running (still in the room)"

# The first topic as Markdown, read while the app runs.
"$work/pullcept" export please --data "$work/data" >"$work/export.md"
grep -q "please review the parser" "$work/export.md" || { echo "newcomer: export lacks the post" >&2; cat "$work/export.md" >&2; exit 1; }
grep -q "^# " "$work/export.md" || { echo "newcomer: export has no title" >&2; exit 1; }
echo "ok: pullcept export wrote the topic as Markdown"

# Close the window: Pullcept's server keeps the room and Claudia's seat.
tmux -L "$sock" kill-session -t nc
end=$(deadline 20)
until "$work/pullcept" ls --data "$work/data" >"$work/ls.txt" 2>&1 && grep -q "^clients *0" "$work/ls.txt"; do
  [ "$(date +%s)" -lt "$end" ] || { echo "newcomer: the server did not see the window go" >&2; cat "$work/ls.txt" >&2; exit 1; }
  sleep 0.3
done
grep -q "Claudia *running" "$work/ls.txt" || { echo "newcomer: Claudia's seat did not outlive the window" >&2; cat "$work/ls.txt" >&2; exit 1; }
grep -q "Counter *running" "$work/ls.txt" || { echo "newcomer: the Counter's seat did not outlive the window" >&2; cat "$work/ls.txt" >&2; exit 1; }
claude_pid=$(sed -n 's/.*Claudia *running *pid \([0-9]*\).*/\1/p' "$work/ls.txt")
counter_pid=$(sed -n 's/.*Counter *running *pid \([0-9]*\).*/\1/p' "$work/ls.txt")
kill -0 "$claude_pid" || { echo "newcomer: Claudia's CLI (pid $claude_pid) is gone" >&2; exit 1; }
echo "ok: the window closed, pullcept ls lists Claudia (pid $claude_pid) and the Counter (pid $counter_pid) running"
before=$(cat "$work/count")
end=$(deadline 10)
until [ "$(cat "$work/count")" -gt $((before + 2)) ]; do
  [ "$(date +%s)" -lt "$end" ] || { echo "newcomer: the counter stopped at $before with no window" >&2; exit 1; }
  sleep 0.2
done
echo "ok: the counter keeps counting with no window ($before -> $(cat "$work/count"))"

# Attach from two new windows: the same topic and chat in both.
attach_cmd="bash -c 'export TERM=xterm-256color; exec \"$work/pullcept\" attach --data \"$work/data\"'"
tmux -L "$sock" new-session -d -s nc -x 200 -y 50 "$attach_cmd"
tmux -L "$sock" new-session -d -s third -x 120 -y 40 "$attach_cmd"
wait_screen "reply to: please review the parser" 20 "pullcept attach shows the chat with Claudia's reply"
screen_third() { tmux -L "$sock" capture-pane -t third -p; }
wait_third() { # PATTERN SECONDS WHAT
  local end; end=$(deadline "$2")
  until screen_third | grep -qF -- "$1"; do
    [ "$(date +%s)" -lt "$end" ] || { echo "newcomer: timed out waiting in the third window for: $3 ($1)" >&2; screen_third >&2; return 1; }
    sleep 0.3
  done
  echo "ok: $3"
}
wait_third "reply to: please review the parser" 20 "a third window attached alongside shows the chat too"

# A post from the second window reaches Claudia; her reply shows in both.
tmux -L "$sock" send-keys -t nc -l "@Cla"
wait_screen "@Cla" 5 "the input shows the partial mention"
tmux -L "$sock" send-keys -t nc Tab
tmux -L "$sock" send-keys -t nc -l "and the lexer too"
tmux -L "$sock" send-keys -t nc Enter
wait_screen "reply to: and the lexer too" 120 "Claudia answers the post of the second window"
wait_third "reply to: and the lexer too" 20 "the third window shows her answer"

# Ctrl+Q in the second window: detach (the focused answer); the third stays.
tmux -L "$sock" send-keys -t nc C-q
wait_screen "Detach" 10 "Ctrl+Q asks: detach or stop everything"
tmux -L "$sock" send-keys -t nc Enter
end=$(deadline 20)
until "$work/pullcept" ls --data "$work/data" >"$work/ls.txt" 2>&1 && grep -q "^clients *1" "$work/ls.txt"; do
  [ "$(date +%s)" -lt "$end" ] || { echo "newcomer: the second window did not detach" >&2; cat "$work/ls.txt" >&2; exit 1; }
  sleep 0.3
done
grep -q "Claudia *running" "$work/ls.txt" || { echo "newcomer: detaching stopped Claudia" >&2; cat "$work/ls.txt" >&2; exit 1; }
wait_third "reply to: and the lexer too" 5 "the third window is still attached"
echo "ok: detaching the second window left the third attached and the seats running"

# kill-server stops the seat, then the server, and removes its socket.
server_pid=$(sed -n 's/.*"pid": *\([0-9]*\).*/\1/p' "$work/data/server.json")
sock_path=$(sed -n 's/.*"socket": *"\([^"]*\)".*/\1/p' "$work/data/server.json")
"$work/pullcept" kill-server --data "$work/data"
end=$(deadline 30)
while kill -0 "$server_pid" 2>/dev/null || kill -0 "$claude_pid" 2>/dev/null || kill -0 "$counter_pid" 2>/dev/null; do
  [ "$(date +%s)" -lt "$end" ] || { echo "newcomer: kill-server left the server ($server_pid), Claudia ($claude_pid) or the Counter ($counter_pid) running" >&2; exit 1; }
  sleep 0.3
done
if "$work/pullcept" ls --data "$work/data" >/dev/null 2>&1; then
  echo "newcomer: pullcept ls still finds a server after kill-server" >&2; exit 1
fi
[ -n "$sock_path" ] && [ ! -e "$sock_path" ] || { echo "newcomer: the socket ($sock_path) is left after kill-server" >&2; exit 1; }
echo "ok: pullcept kill-server stopped both seats and the server, and removed its socket"

# Every window's client ended with the server: no final screen to show.
echo "newcomer: PASS"
