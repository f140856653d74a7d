#!/usr/bin/env bash
# Hostile input to the example programs: each case runs one program the way a user might
# misuse it and checks that it ends with the documented exit status and message, creates no
# stray files and never crashes (docs/programs.md, "Example programs").
#   hostile_input.sh <case> <directory of hdae-example and its links hdae-<name>>
# Cases:
#   out-of-memory     the chain with 4e9 masses under `ulimit -v`: building the model throws
#                     std::bad_alloc, which must become exit status 2 and a message (not
#                     SIGABRT, 134).
#   device-output     output to /dev/null and to a named pipe: the table goes there; no
#                     <output>.units.csv or .events.csv appear beside it, a note on stderr
#                     says so, exit status 0.
#   bad-command-line  an unknown option, an extra positional argument, an invalid option
#                     value, an empty output path: exit status 2, a message naming it, no
#                     result written.
#   help              --help prints the usage and --version the version, exit status 0, and
#                     neither is taken for an output path.
# Each case runs in a fresh scratch directory (its working directory), removed at the end.
set -euo pipefail
# fail, expect_status, expect_err_line
source "$(dirname "${BASH_SOURCE[0]}")/../support/program_checks.sh"

case_name="$1"
dir="$2"
work="$(mktemp -d)"
created_in_dev=()
cleanup() {
  # A failing device-output case as root would leave files in /dev; remove the ones it made.
  for f in "${created_in_dev[@]+"${created_in_dev[@]}"}"; do rm -f "${f}"; done
  rm -rf "${work}"
}
trap cleanup EXIT
cd "${work}"
# run <program> <args...>: runs ${dir}/<program>, stdout to ./out, stderr to ./err, exit
# status to ${status}.
run() {
  local program="$1"
  shift
  status=0
  "${dir}/${program}" "$@" > out 2> err || status=$?
}
expect_only_files() {
  local found
  found="$(find . -mindepth 1 -not -name out -not -name err | sort | tr '\n' ' ')"
  [[ "${found}" == "$*" ]] || fail "files in the working directory: '${found}', expected '$*'"
}

case "${case_name}" in
  out-of-memory)
    # 1 GiB of address space: ample for the program (about 100 MB mapped at start) and far
    # below the 3 * 4e9 variables the model would declare.
    status=0
    (ulimit -v 1048576 && exec "${dir}/hdae-mass-spring-chain" out.csv 4000000000) \
      > out 2> err || status=$?
    expect_status 2
    expect_err_line "hdae-mass-spring-chain: out of memory while building the model"
    expect_only_files ""
    ;;

  device-output)
    for side in /dev/null.units.csv /dev/null.events.csv /dev/null.params.csv; do
      [[ -e "${side}" ]] && fail "${side} exists before the test; remove it to run the test"
      created_in_dev+=("${side}")
    done
    run hdae-pendulum /dev/null --stop 0.1
    expect_status 0
    expect_err_line "hdae-pendulum: /dev/null is not a regular file: wrote the table only, no units, event log or parameters file"
    for side in /dev/null.units.csv /dev/null.events.csv /dev/null.params.csv; do
      [[ -e "${side}" ]] && fail "${side} was created"
    done
    created_in_dev=()
    grep -q "^status: reached stop time at t = 0.1$" out || fail "no summary on stdout"

    mkfifo pipe
    cat pipe > from_pipe &
    reader=$!
    run hdae-pendulum pipe --stop 0.1
    wait "${reader}"
    expect_status 0
    expect_err_line "hdae-pendulum: pipe is not a regular file: wrote the table only, no units, event log or parameters file"
    [[ "$(head -n 1 from_pipe)" == time,phi,* ]] || fail "the pipe did not carry the table"
    # 500 rows of the default grid and the header.
    [[ "$(wc -l < from_pipe)" == 502 ]] || fail "$(wc -l < from_pipe) lines through the pipe, expected 502"
    expect_only_files "./from_pipe ./pipe "
    ;;

  bad-command-line)
    run hdae-pendulum --frobnicate
    expect_status 2
    expect_err_line "hdae-pendulum: The following argument was not expected: --frobnicate"
    run hdae-pendulum a.csv b.csv
    expect_status 2
    expect_err_line "hdae-pendulum: The following argument was not expected: b.csv"
    run hdae-mass-spring-chain a.csv 20 30
    expect_status 2
    expect_err_line "hdae-mass-spring-chain: The following argument was not expected: 30"
    run hdae-mass-spring-chain a.csv twenty
    expect_status 2
    expect_err_line "hdae-mass-spring-chain: N: must be a positive integer, got 'twenty'"
    run hdae-bouncing-ball a.csv --rtol 2
    expect_status 2
    expect_err_line "hdae-bouncing-ball: SimulationOptions::rel_tol must be in (0, 1), got 2"
    run hdae-example no_such_example
    expect_status 2
    expect_err_line "hdae-example: no example called 'no_such_example' ('hdae-example --list' names them)"
    # An empty output path: refused before the run, so no .units.csv, .events.csv or
    # .params.csv appears in the working directory.
    run hdae-pendulum ''
    expect_status 2
    expect_err_line "hdae-pendulum: output: must not be empty"
    run hdae-pendulum -o ''
    expect_status 2
    expect_err_line "hdae-pendulum: --output: must not be empty"
    expect_only_files ""
    ;;

  help)
    run hdae-pendulum --help
    expect_status 0
    grep -q "^Usage: hdae-pendulum \[OPTIONS\] \[output\]$" out || fail "no usage line"
    grep -q -- "--output-interval" out || fail "the usage lacks --output-interval"
    [[ ! -s err ]] || fail "stderr is not empty"
    run hdae-mass-spring-chain --help
    expect_status 0
    grep -q "^Usage: hdae-mass-spring-chain \[OPTIONS\] \[output\] \[N\]$" out || fail "no usage line"
    run hdae-pendulum-dae --version
    expect_status 0
    grep -qx "hdae-pendulum-dae (hdae [0-9.]*)" out || fail "no version line"
    expect_only_files ""
    ;;

  *)
    echo "hostile_input.sh: unknown case '${case_name}'" >&2
    exit 2
    ;;
esac
echo "hostile_input.sh ${case_name}: passed"
