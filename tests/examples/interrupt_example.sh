#!/usr/bin/env bash
# Ctrl-C ends an example program cleanly (examples/program/main.cpp, docs/troubleshooting.md):
# SIGINT (or SIGTERM) sets the cancel flag, the run stops with status "interrupted",
# the program writes what it computed — a CSV whose every line is a complete row — and exits
# with 1 (stopped early).
#   interrupt_example.sh [--signal INT|TERM] <example program> [arguments after the output path...]
# The program must run for longer than a second or so. Linux only: the signal is sent once
# /proc/<pid>/status shows the program's handler for it (SigCgt), never before it exists.
# Every wait is bounded (60 s each), so a broken program fails the test instead of hanging it.
set -euo pipefail

signal=INT
if [[ "$1" == "--signal" ]]; then
  signal="$2"
  shift 2
fi
case "${signal}" in
  INT) signal_number=2 ;;
  TERM) signal_number=15 ;;
  *) echo "interrupt_example.sh: unknown signal ${signal}" >&2; exit 2 ;;
esac
exe="$1"
shift
exe_path="$(readlink -f "${exe}")"
work="$(mktemp -d)"
pid=""
cleanup() {
  if [[ -n "${pid}" ]]; then kill -KILL "${pid}" 2> /dev/null || true; fi
  rm -rf "${work}"
}
trap cleanup EXIT
fail() {
  echo "interrupt_example.sh: $*" >&2
  cat "${work}/out" "${work}/err" >&2 2> /dev/null || true
  exit 1
}

# "R", "S", ... while the process lives; "Z" (exited, not yet reaped) or "gone" after.
state() { awk '/^State:/ {print $2}' "/proc/${pid}/status" 2> /dev/null || echo gone; }
running() { local s; s="$(state)"; [[ -n "${s}" && "${s}" != "Z" && "${s}" != "gone" ]]; }
# Bit n - 1 of the SigCgt mask is signal n (SIGINT 2, SIGTERM 15). Between fork and exec the
# child is still this shell, whose own SIGINT handler shows in the mask until exec resets it,
# so the mask counts only once the process runs the program.
catches_signal() {
  local mask
  [[ "$(readlink "/proc/${pid}/exe" 2> /dev/null)" == "${exe_path}" ]] || return 1
  mask="$(awk '/^SigCgt:/ {print $2}' "/proc/${pid}/status" 2> /dev/null)" || return 1
  [[ -n "${mask}" ]] && (((16#${mask} >> (signal_number - 1)) & 1))
}

"${exe}" "${work}/run.csv" "$@" > "${work}/out" 2> "${work}/err" &
pid=$!

for ((i = 0; i < 600; ++i)); do
  catches_signal && break
  running || fail "the program ended before installing its SIG${signal} handler"
  sleep 0.1
done
catches_signal || fail "the program installed no SIG${signal} handler within 60 s"
sleep 1  # usually lands in the middle of the integration; the checks do not depend on it
kill "-${signal}" "${pid}"

for ((i = 0; i < 600; ++i)); do
  running || break
  sleep 0.1
done
running && fail "the program was still running 60 s after SIG${signal}"
status=0
wait "${pid}" || status=$?
pid=""

[[ "${status}" == 1 ]] || fail "exit status ${status}, expected 1 (stopped early)"
# Said once: "status: interrupted at t = 0.68", not "... (interrupted at t = 0.68)" again.
grep -qE "^status: interrupted at t = [0-9.e+-]+$" "${work}/out" ||
  fail "the summary's status line is not 'status: interrupted at t = <t>'"
[[ -f "${work}/run.csv" ]] || fail "no result CSV"
first_row="$(sed -n 2p "${work}/run.csv")"
[[ "${first_row%%,*}" == "0" ]] || fail "the result CSV has no row at t0 = 0"
# A valid CSV: every line has the header's number of fields and ends with a line break.
awk -F, 'NR == 1 {n = NF} NF != n {bad = 1} END {exit bad}' "${work}/run.csv" ||
  fail "the result CSV has a line with a different number of fields than its header"
[[ "$(tail -c 1 "${work}/run.csv" | od -An -c | tr -d ' ')" == '\n' ]] ||
  fail "the result CSV does not end with a complete line"
[[ -z "$(find "${work}" -name '.*' -type f)" ]] || fail "a temporary file was left behind"
[[ -f "${work}/run.events.csv" ]] || fail "no event log"
head -n 1 "${work}/run.events.csv" | grep -q "^time,kind," || fail "the event log has no header"
echo "$(grep "^status: " "${work}/out"), $(($(wc -l < "${work}/run.csv") - 1)) rows kept"
