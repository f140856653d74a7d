#!/usr/bin/env bash
# Ctrl-C ends an example program cleanly (examples/program/main.cpp, README "When things go
# wrong"): SIGINT sets the cancel flag, the run stops with status "interrupted", the program
# writes what it computed and exits with 1 (stopped early).
#   interrupt_example.sh <example program> [arguments after the output path...]
# The program must run for longer than a second or so. Linux only: the signal is sent once
# /proc/<pid>/status shows the program's SIGINT handler (SigCgt), never before it exists.
# Every wait is bounded (60 s each), so a broken program fails the test instead of hanging it.
set -euo pipefail

exe="$1"
shift
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
# Bit 1 of the SigCgt mask is signal 2, SIGINT.
catches_sigint() {
  local mask
  mask="$(awk '/^SigCgt:/ {print $2}' "/proc/${pid}/status" 2> /dev/null)" || return 1
  [[ -n "${mask}" ]] && (((16#${mask} >> 1) & 1))
}

"${exe}" "${work}/run.csv" "$@" > "${work}/out" 2> "${work}/err" &
pid=$!

for ((i = 0; i < 600; ++i)); do
  catches_sigint && break
  running || fail "the program ended before installing its SIGINT handler"
  sleep 0.1
done
catches_sigint || fail "the program installed no SIGINT handler within 60 s"
sleep 1  # usually lands in the middle of the integration; the checks do not depend on it
kill -INT "${pid}"

for ((i = 0; i < 600; ++i)); do
  running || break
  sleep 0.1
done
running && fail "the program was still running 60 s after SIGINT"
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
[[ -f "${work}/run.events.csv" ]] || fail "no event log"
head -n 1 "${work}/run.events.csv" | grep -q "^time,kind," || fail "the event log has no header"
echo "$(grep "^status: " "${work}/out"), $(($(wc -l < "${work}/run.csv") - 1)) rows kept"
