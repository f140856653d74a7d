#!/usr/bin/env bash
# The hdae program from the outside (docs/programs.md, "The hdae program"): each case runs it as a user
# would and checks exit status, output and files.
#   hdae_program.sh <case> <path of hdae>
# Cases:
#   list        `hdae list` names the twenty-five bundled models with a description, exit 0.
#   info        `hdae info ideal_clutch` shows variables, parameters (J2 with unit, default,
#               range and description), equations and time events, exit 0.
#   run-set     `hdae run ideal_clutch --set J2=0.5 --set k=0.3 ...` writes the result, units,
#               event log and parameters (J2 and k as set), prints the summary; the shared
#               speed after the initial engagement is the hand-computed one.
#   errors      unknown model, unknown parameter, non-number, out of range, malformed --set:
#               exit 2 and a message naming it, no result written.
#   compare     `hdae compare` of a run with itself agrees (exit 0); with a changed parameter
#               it differs (exit 1).
#   plot        `hdae plot r.csv` writes r.png (a PNG file); skipped (77) when /usr/bin/python3
#               cannot import matplotlib, unless HDAE_REQUIRE_PLOTS=1.
#   plot-hostile  `hdae plot` on input it cannot draw: an HDF5 file, values from -1e308 to
#               1e308, a field beyond csv's limit, a FIFO (refused, not read), a directory:
#               exit 2 and "hdae plot: <file>: <reason>", nothing else on standard error;
#               `hdae plot --help` exits 0. Needs /usr/bin/python3 only (the input is refused
#               before matplotlib is loaded); skipped (77) without it.
#   make-references  hdae-make-references (beside hdae) answers --bogus, -x with exit 2 and
#               its name in front, --version and --help with exit 0.
#   file-limit  under `ulimit -f 100` (100 KiB) a result that outgrows it, HDF5 and CSV: exit 2,
#               "<file>: ...: File too large", the previous result intact, no temporary left.
#   quiet       standard error not a terminal: no progress lines.
#   progress    standard error a terminal (script(1) gives the run a pty): progress lines.
# Each case runs in a fresh scratch directory, removed at the end.
set -euo pipefail
# fail, expect_status, expect_err_line
source "$(dirname "${BASH_SOURCE[0]}")/../support/program_checks.sh"

case_name="$1"
hdae="$2"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
cd "${work}"
run() {
  status=0
  "${hdae}" "$@" > out 2> err || status=$?
}
expect_out() { grep -qE -- "$1" out || fail "stdout lacks a line matching: $1"; }
expect_no_results() { [[ -z "$(ls)" || "$(ls)" == $'err\nout' ]] || fail "files written: $(ls)"; }

case "${case_name}" in
  list)
    run list
    expect_status 0
    [[ "$(wc -l < out)" == 25 ]] || fail "$(wc -l < out) lines, expected 25"
    expect_out "^  ideal_clutch +Ideal clutch"
    expect_out "^  mass_spring_chain +Chain of N masses"
    ;;

  info)
    run info ideal_clutch
    expect_status 0
    expect_out "^ideal_clutch: Ideal clutch"
    expect_out "^variables \(3\):$"
    expect_out "^  w2 +rad/s +10 +10$"
    expect_out "^parameters \(10\):$"
    expect_out "^  J2 +kg\.m2 +0\.4 +\[5e-324, inf\] +inertia of shaft 2$"
    expect_out "^  engage +s +300 +\[-inf, inf\] +time the clutch closes again"
    expect_out "^equations \(row kind at t0\) \(3\):$"
    expect_out "^  f_c +engaged: 0 = w2 - w1; released: 0 = tau$"
    expect_out "^time events \(2\):$"
    expect_out "^  release$"
    ;;

  run-set)
    run run ideal_clutch --set J2=0.5 --set k=0.3 --stop 50 --rtol 1e-8 --output-interval 0.5 \
      -o out.csv
    expect_status 0
    for f in out.csv out.units.csv out.events.csv out.params.csv; do
      [[ -f "${f}" ]] || fail "${f} not written"
    done
    grep -qxF "J2,0.5,kg.m2" out.params.csv || fail "J2 not in out.params.csv"
    grep -qxF "k,0.3,N.m/A" out.params.csv || fail "k not in out.params.csv"
    [[ "$(head -n 1 out.params.csv)" == "name,value,unit" ]] || fail "params header"
    expect_out "^status: reached stop time at t = 50$"
    # Shared speed after the engagement at t = 0, conserved angular momentum (J1 + k^2 C) w1 +
    # J2 w2 with J1 = 0.1, C = 2, w1 = 0, w2 = 10: 0.5 * 10 / (0.1 + 0.18 + 0.5) = 6.410256.
    expect_out "^w1\(0\+\) = 6\.410256 rad/s"
    expect_out "^-> out\.csv$"
    ;;

  errors)
    run run no_such_model
    expect_status 2
    expect_err_line "hdae run: no model called 'no_such_model' ('hdae list' names them)"
    run run ideal_clutch --set J3=1 -o a.csv
    expect_status 2
    grep -qF "hdae run ideal_clutch: --set J3=1: model 'ideal_clutch' has no parameter 'J3'; its parameters are: V0, J1, J2, R, C, k, w1_start, w2_start, release, engage" err \
      || fail "no message naming J3 and the known parameters"
    run run ideal_clutch --set J2=heavy -o a.csv
    expect_status 2
    grep -qF "the value of parameter 'J2' is not a number: 'heavy'" err || fail "no message for J2=heavy"
    run run ideal_clutch --set J2=-1 -o a.csv
    expect_status 2
    grep -qF "hdae run ideal_clutch: --set J2=-1: model 'ideal_clutch': parameter 'J2' (inertia of shaft 2) must be a finite number in [5e-324, inf] kg.m2, got -1" err \
      || fail "no range message for J2=-1"
    run run ideal_clutch --set release=400 -o a.csv
    expect_status 2
    grep -qF "parameter 'engage' (300 s) must be > parameter 'release' (400 s)" err \
      || fail "no message for release after engage"
    run run ideal_clutch --set J2 -o a.csv
    expect_status 2
    grep -qF "'J2' is not NAME=VALUE" err || fail "no message for --set J2"
    run info no_such_model
    expect_status 2
    grep -qF "hdae info: no bundled model 'no_such_model'; the models are: pendulum," err \
      || fail "no message for info no_such_model"
    run frobnicate
    expect_status 2
    expect_no_results
    ;;

  file-limit)
    for file in p.h5 p.csv; do
      echo previous > "${file}"
      status=0
      (ulimit -f 100; "${hdae}" run pendulum --stop 100 --output-interval 0.01 -o "${file}" \
        > out 2> err) || status=$?
      expect_status 2
      grep -qE "^hdae run pendulum: ${file}: .*File too large$" err \
        || fail "no 'File too large' for ${file}: $(cat err)"
      [[ "$(cat "${file}")" == previous ]] || fail "${file} was not kept"
      [[ -z "$(ls -A | grep '^\.')" ]] || fail "temporaries left: $(ls -A)"
    done
    ;;

  compare)
    "${hdae}" run pendulum -o a.csv > /dev/null
    "${hdae}" run pendulum --set d=0.5 -o b.csv > /dev/null
    run compare a.csv a.csv
    expect_status 0
    expect_out "^verdict: agree"
    run compare a.csv b.csv
    expect_status 1
    expect_out "^verdict: differ"
    ;;

  plot)
    if ! /usr/bin/python3 -c 'import matplotlib' > /dev/null 2>&1; then
      [[ "${HDAE_REQUIRE_PLOTS:-0}" == 1 ]] && fail "/usr/bin/python3 cannot import matplotlib"
      echo "SKIP: /usr/bin/python3 cannot import matplotlib"
      exit 77
    fi
    unset HDAE_PYTHON
    "${hdae}" run bouncing_ball -o r.csv > /dev/null
    run plot r.csv
    expect_status 0
    # The 8-byte PNG signature: 137 P N G \r \n 26 \n.
    [[ "$(od -An -tx1 -N8 r.png | tr -d ' ')" == 89504e470d0a1a0a ]] || fail "r.png is no PNG"
    run plot r.csv no_such_signal
    expect_status 2
    ;;

  plot-hostile)
    if [[ ! -x /usr/bin/python3 ]]; then
      echo "SKIP: no /usr/bin/python3"
      exit 77
    fi
    unset HDAE_PYTHON
    "${hdae}" run bouncing_ball -o r.h5 > /dev/null
    printf 'time,x\n0,1e308\n1,-1e308\n' > big.csv
    { printf 'time,x\n0,'; head -c 200000 /dev/zero | tr '\0' 1; printf '\n'; } > huge.csv
    mkfifo fifo.csv
    mkdir dir.csv
    for input in r.h5 big.csv huge.csv fifo.csv dir.csv; do
      case "${input}" in
        r.h5) reason="an HDF5 result file; plots are drawn from result CSVs (an output path ending in .csv writes one)" ;;
        big.csv) reason="x: the values from -1e+308 to 1e+308 span more than a double holds; no axis can show them" ;;
        huge.csv) reason="field larger than field limit (131072)" ;;
        *) reason="not a regular file (a pipe, a device or a directory)" ;;
      esac
      status=0
      timeout 60 "${hdae}" plot "${input}" > out 2> err || status=$?
      expect_status 2
      [[ "${input}" == huge.csv ]] && input="huge.csv:2"
      [[ "$(cat err)" == "hdae plot: ${input}: ${reason}" ]] || fail "stderr is not \"hdae plot: ${input}: ${reason}\""
    done
    run plot --help
    expect_status 0
    expect_out "^usage: hdae plot result.csv \[out.png\] \[signal \.\.\.\]$"
    ;;

  make-references)
    make_references="$(dirname "${hdae}")/hdae-make-references"
    for bad in --bogus -x; do
      status=0
      "${make_references}" "${bad}" > out 2> err || status=$?
      expect_status 2
      expect_err_line "hdae-make-references: The following argument was not expected: ${bad}"
      expect_err_line "Run 'hdae-make-references --help' for the usage."
    done
    status=0
    "${make_references}" --version > out 2> err || status=$?
    expect_status 0
    expect_out "^hdae-make-references \(hdae [0-9.]+\)$"
    status=0
    "${make_references}" --help > out 2> err || status=$?
    expect_status 0
    expect_out "^Exit status: 0 every reference written"
    [[ -z "$(ls -d references 2> /dev/null)" ]] || fail "--help wrote references/"
    ;;

  quiet)
    run run bouncing_ball -o ball.csv
    expect_status 0
    grep -q "^t = \|events\?$" err && fail "progress lines on a standard error that is a file"
    [[ ! -s err ]] || fail "standard error not empty"
    ;;

  progress)
    # script(1) runs the command on a pseudo-terminal; its output is the terminal's.
    status=0
    script -qec "'${hdae}' run bouncing_ball -o ball.csv" /dev/null > out 2> err || status=$?
    expect_status 0
    tr '\r' '\n' < out > lines
    grep -qE "^t = 3 / 3 s \(100%\), 18 events *$" lines || fail "no final progress line"
    ;;

  *)
    echo "hdae_program.sh: unknown case ${case_name}" >&2
    exit 2
    ;;
esac
