#!/usr/bin/env bash
# Runs one example of each kind under valgrind memcheck (ODE: pendulum; events: bouncing
# ball; Dirac impulses: ideal clutch and colliding masses; KLU: the chain with the 20 masses
# of its reference) and fails on any memory error or leak.
#   scripts/memcheck.sh [build dir]     (default build/dev, built by scripts/test.sh)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-${root}/build/dev}"
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
command -v valgrind > /dev/null || { echo "memcheck.sh: valgrind missing (scripts/install-deps.sh)" >&2; exit 2; }

# Each example runs with the arguments of its reference run, from the registry's listing
# (`hdae-example --list`: name, then those arguments; the chain's are "20").
[[ -x "${build}/examples/hdae-example" ]] || { echo "memcheck.sh: ${build}/examples/hdae-example not built" >&2; exit 2; }
listing="$("${build}/examples/hdae-example" --list)"

status=0
for name in "pendulum" "bouncing_ball" "ideal_clutch" "colliding_masses" "mass_spring_chain" \
  "cartesian_pendulum" "three_masses_impact"; do
  entry="$(grep -E "^${name}( |$)" <<< "${listing}")" ||
    { echo "memcheck.sh: no example ${name} in the registry" >&2; exit 2; }
  read -r _ args <<< "${entry}"
  exe="${build}/examples/hdae-${name//_/-}"
  [[ -x "${exe}" ]] || { echo "memcheck.sh: ${exe} not built" >&2; exit 2; }
  # shellcheck disable=SC2086
  if valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
      --errors-for-leak-kinds=definite,indirect,possible \
      "${exe}" "${out}/${name}.csv" ${args} > "${out}/${name}.out" 2> "${out}/${name}.valgrind"; then
    echo "memcheck ${name}: no errors, no leaks"
  else
    echo "memcheck ${name}: FAILED" >&2
    cat "${out}/${name}.valgrind" >&2
    status=1
  fi
done
exit "${status}"
