# Checks shared by the shell tests that run a program with its standard output in ./out and
# its standard error in ./err and its exit status in ${status} (hostile_input.sh,
# hdae_program.sh). Sourced by bash with ${case_name} set; the messages start with the
# sourcing script's name and the case.

# fail <message>: the message, then what the program printed; exit 1.
fail() {
  echo "$(basename "$0") ${case_name}: $*" >&2
  echo "--- stdout" >&2
  cat out >&2 2> /dev/null || true
  echo "--- stderr" >&2
  cat err >&2 2> /dev/null || true
  exit 1
}
expect_status() { [[ "${status}" == "$1" ]] || fail "exit status ${status}, expected $1"; }
expect_err_line() { grep -qxF -- "$1" err || fail "stderr lacks the line: $1"; }
