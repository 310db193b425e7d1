#!/usr/bin/env bash
# make wine: the Windows build of Pullcept and every package's Windows test
# binary, run under Wine (docs/design.md §13 "Windows under Wine").
#
# Wine is not Windows. Three of its gaps stop Go programs (or Pullcept's
# server) outright; this rig — and only this rig — works around them, each
# in a way that reproduces what real Windows does and changes nothing in
# the repository:
#
#  1. Wine 8.0 has no bcryptprimitives.dll, which every Go ≥ 1.22 Windows
#     binary loads at start (ProcessPrng, added in Wine 8.13). The rig builds
#     a 4 KB DLL whose one export forwards ProcessPrng to
#     advapi32!SystemFunction036 (RtlGenRandom: same arguments, same result)
#     with binutils-mingw-w64 and puts it in the prefix's system32.
#  2. Wine answers NtSetInformationFile(FileDispositionInformationEx) with
#     STATUS_NOT_IMPLEMENTED, which Go's internal/syscall/windows.Deleteat
#     does not take as "unsupported" (it does for STATUS_INVALID_INFO_CLASS,
#     which older Windows returns), so os.RemoveAll — t.TempDir's cleanup —
#     fails. The rig copies that one file from the local Go toolchain, adds
#     STATUS_NOT_IMPLEMENTED to the fallback's cases, and builds the test
#     binaries with `go build -overlay`: the older-Windows path real Go takes.
#  3. Wine lets a client connect to the first instance of a named pipe that
#     go-winio creates without read or write access, which real Windows keeps
#     unconnectable until the listener's own instances accept (go-winio's
#     ListenPipe relies on it): a client of `pullcept server`'s pipe would
#     wait there forever. The rig builds with go-winio's pipe.go with one
#     line added to ListenPipe: the listener opens that first instance
#     itself, as a client, and holds it until it closes, so every client
#     reaches an instance that accepts — what real Windows does. The build
#     takes that copy through a go.mod copy with a replace (`go build
#     -modfile`; the module cache cannot be overlaid). Wine also lets a
#     second ListenPipe take a name in use; the test of that skips.
#
# Tests that cannot hold under Wine (a Wine stub, not our code) skip
# themselves when PULLCEPT_WINE=1, with the reason; the run prints them.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

for tool in wine x86_64-w64-mingw32-dlltool x86_64-w64-mingw32-ld; do
  command -v "$tool" >/dev/null || {
    echo "wine: $tool is missing: apt-get install -y --no-install-recommends wine wine64 binutils-mingw-w64-x86-64 (.ci/run does)" >&2
    exit 1
  }
done

work=${WINE_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/pullcept-wine.XXXXXX")}
mkdir -p "$work/bin"
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" PULLCEPT_WINE=1
if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
  wineboot -i >/dev/null 2>&1
fi

# 1. The ProcessPrng forwarder.
cat >"$work/bcp.def" <<'DEF'
LIBRARY bcryptprimitives.dll
EXPORTS
ProcessPrng = advapi32.SystemFunction036
DEF
x86_64-w64-mingw32-dlltool -d "$work/bcp.def" -e "$work/bcp.o"
x86_64-w64-mingw32-ld --dll --entry 0 -o "$work/bcryptprimitives.dll" "$work/bcp.o"
cp "$work/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"

# 2. The Deleteat fallback, generated from the local toolchain.
src="$(go env GOROOT)/src/internal/syscall/windows/at_windows.go"
sed 's|^\t\tSTATUS_NOT_SUPPORTED:     // the file system|\t\tSTATUS_NOT_SUPPORTED, NTStatus(0xC0000002): // Wine: STATUS_NOT_IMPLEMENTED; the file system|' \
  "$src" >"$work/at_windows.go"
if ! grep -q 'NTStatus(0xC0000002)' "$work/at_windows.go"; then
  echo "wine: $src changed shape; the Deleteat fallback patch no longer applies (update testdata/wine/run.sh)" >&2
  exit 1
fi
# 3. go-winio's first pipe instance held by the listener itself: a patched
# copy of the module, used through a go.mod copy that replaces it (the
# module cache cannot be overlaid).
winio=$(go list -m -f '{{.Dir}}' github.com/Microsoft/go-winio)
rm -rf "$work/go-winio"; cp -r "$winio" "$work/go-winio"; chmod -R u+w "$work/go-winio"
plug='if plug, perr := fs.CreateFile(path, fs.GENERIC_READ|fs.GENERIC_WRITE, 0, nil, fs.OPEN_EXISTING, 0, 0); perr == nil { go func() { <-l.doneCh; _ = windows.Close(plug) }() } // Wine: the first instance would take clients'
sed "s#^\tgo l.listenerRoutine()\$#\t$plug\n\tgo l.listenerRoutine()#" "$winio/pipe.go" >"$work/go-winio/pipe.go"
if ! grep -q 'Wine: the first instance' "$work/go-winio/pipe.go"; then
  echo "wine: $winio/pipe.go changed shape; the first-instance patch no longer applies (update testdata/wine/run.sh)" >&2
  exit 1
fi
cp go.mod "$work/go.mod"; cp go.sum "$work/go.sum"
go mod edit -replace "github.com/Microsoft/go-winio=$work/go-winio" "$work/go.mod"
printf '{"Replace":{"%s":"%s"}}\n' "$src" "$work/at_windows.go" >"$work/overlay.json"

export GOOS=windows GOARCH=amd64 CGO_ENABLED=0
go build -modfile "$work/go.mod" -overlay "$work/overlay.json" -o "$work/bin/pullcept.exe" .
out=$(wine "$work/bin/pullcept.exe" --version 2>&1) || { echo "wine: pullcept.exe --version failed: $out" >&2; exit 1; }
echo "pullcept.exe --version: $out"
wine "$work/bin/pullcept.exe" --help 2>&1 | grep -q "Pullcept" || { echo "wine: pullcept.exe --help does not say what it is" >&2; exit 1; }
echo "pullcept.exe --help: ok"

# The smoke test: the app in tmux under Wine, a post typed and sent, then
# Ctrl+Q. Wine's console host draws the screen garbled (it does not read
# the escape sequences), so the test reads the topic log, not the screen.
command -v tmux >/dev/null || { echo "wine: tmux is missing" >&2; exit 1; }
home="$work/smoke"; rm -rf "$home"; mkdir -p "$home"
sock="pullcept-wine-$$"
tmux -L "$sock" new-session -d -s w -x 120 -y 40 \
  "env WINEPREFIX='$WINEPREFIX' WINEDEBUG=-all PULLCEPT_HOME='Z:${home//\//\\}' wine '$work/bin/pullcept.exe'; echo \"exited \$?\" >'$work/smoke.rc'; sleep 60"
smoke_fail() { echo "wine: smoke test: $1" >&2; tmux -L "$sock" capture-pane -p -t w >&2 || true; tmux -L "$sock" kill-server 2>/dev/null || true; exit 1; }
for _ in $(seq 1 100); do [ -f "$home/pullcept.pid" ] && break; sleep 0.2; done
[ -f "$home/pullcept.pid" ] || smoke_fail "the app did not start (no pullcept.pid in 20 s)"
sleep 1 # the first frame: keys before it are read by the console host, not the app
tmux -L "$sock" send-keys -t w -l "hello from wine"
sleep 0.5
tmux -L "$sock" send-keys -t w Enter
for _ in $(seq 1 100); do grep -qs '"content":"hello from wine"' "$home"/logs/main/*.jsonl && break; sleep 0.2; done
grep -qs '"content":"hello from wine"' "$home"/logs/main/*.jsonl || smoke_fail "the typed post is not in the topic log"
tmux -L "$sock" send-keys -t w C-q
for _ in $(seq 1 100); do [ -f "$work/smoke.rc" ] && break; sleep 0.2; done
grep -qx "exited 0" "$work/smoke.rc" 2>/dev/null || smoke_fail "Ctrl+Q did not end the app with status 0 ($(cat "$work/smoke.rc" 2>/dev/null || echo 'still running'))"
tmux -L "$sock" kill-server 2>/dev/null || true
echo "smoke: a post typed under Wine reached the log; Ctrl+Q ended the app (0)"

fail=0
summary=()
for pkg in $(go list ./...); do
  # WINE_PKGS=<regexp> runs only the packages it matches (a developer's loop).
  if [ -n "${WINE_PKGS:-}" ] && ! [[ $pkg =~ $WINE_PKGS ]]; then continue; fi
  dir=$(go list -f '{{.Dir}}' "$pkg")
  name=$(echo "${pkg#github.com/pullcept/pullcept}" | tr '/' '_'); name=${name:-_main}
  if [ -z "$(go list -f '{{join .TestGoFiles " "}}{{join .XTestGoFiles " "}}' "$pkg")" ]; then
    continue
  fi
  go test -modfile "$work/go.mod" -overlay "$work/overlay.json" -c -o "$work/bin/$name.test.exe" "$pkg"
  start=$(date +%s)
  set +e
  (cd "$dir" && timeout 900 wine "$work/bin/$name.test.exe" -test.v -test.timeout 12m) >"$work/$name.out" 2>&1
  rc=$?
  set -e
  pass=$(grep -cE '^\s*--- PASS' "$work/$name.out" || true)
  failed=$(grep -cE '^\s*--- FAIL' "$work/$name.out" || true)
  skipped=$(grep -cE '^\s*--- SKIP' "$work/$name.out" || true)
  summary+=("$(printf '%-32s %4d passed %3d failed %3d skipped %4ds' "${pkg#github.com/pullcept/}" "$pass" "$failed" "$skipped" $(( $(date +%s) - start )))")
  if [ $rc -ne 0 ]; then
    fail=1
    echo "---- $pkg under Wine failed (rc $rc):"
    grep -E -B2 -A12 '^\s*--- FAIL' "$work/$name.out" | head -80 || tail -40 "$work/$name.out"
  fi
  grep -E 'under Wine: ' "$work/$name.out" | sed "s|^ *|  skipped (${pkg#github.com/pullcept/}) |" || true
done
printf '%s\n' "${summary[@]}"
[ $fail -eq 0 ] && echo "wine: PASS" || { echo "wine: FAIL (outputs in $work)"; exit 1; }
# Wait for wineserver to end first: it writes the prefix's registry when it
# exits (a few seconds after the last Wine process), which raced the rm.
wineserver -w || true
if [ -z "${WINE_WORK:-}" ]; then rm -rf "$work"; fi
