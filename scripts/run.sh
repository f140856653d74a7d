#!/usr/bin/env bash
# Installs what is missing, builds hdae in Release, runs every bundled example, compares each
# result with its reference (hdae-compare) and plots it. Ends with a table:
#   example, events, verdict against references/<name>.csv, plot.
# Results go to results/<name>.csv (+ .units.csv, .events.csv, .params.csv, .png); build to
# build/release, which holds the hdae program too (tools/hdae).
# Prints each program's summary (status, every event with the variables that jumped, key
# values), then the table. Exit status 0 when every example ran to its end and agrees with
# its reference.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"
"${root}/scripts/install-deps.sh"

build="${root}/build/release"
log="${build}/build.log"
mkdir -p "${build}"
if ! { cmake --preset release && cmake --build --preset release; } > "${log}" 2>&1; then
  cat "${log}" >&2
  echo "run.sh: build failed (log above, also in ${log})" >&2
  exit 1
fi

# The Python package: build/venv (Debian's python3 with its packages) imports hdae from
# build/release/python through a .pth file, so `build/venv/bin/python -c "import hdae"` works.
if [[ -d "${build}/python/hdae" ]]; then
  venv="${root}/build/venv"
  [[ -x "${venv}/bin/python" ]] || /usr/bin/python3 -m venv --system-site-packages "${venv}"
  site="$("${venv}/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  echo "${build}/python" > "${site}/hdae-build.pth"
fi

results="${root}/results"
mkdir -p "${results}"
# The examples and the arguments after the output path come from the registry
# (examples/registry/registry.cpp) through `hdae-example --list`: one line per example, its
# name and the arguments of its reference run (the chain runs with the 20 masses of its
# reference; `build/release/examples/hdae-mass-spring-chain out.csv 100000` runs it large).
listing="$("${build}/examples/hdae-example" --list)"
mapfile -t examples <<< "${listing}"

failures=0
rows=()
for entry in "${examples[@]}"; do
  read -r name args <<< "${entry}"
  exe="${build}/examples/hdae-${name//_/-}"
  csv="${results}/${name}.csv"
  run_log="${results}/${name}.log"
  # shellcheck disable=SC2086
  if "${exe}" "${csv}" ${args} > "${run_log}" 2>&1; then
    ran="ok"
  else
    ran="failed"
    failures=$((failures + 1))
  fi
  # The program's own summary: status, each event with the variables that jumped, key values.
  printf '\n--- %s ---\n' "${name}"
  cat "${run_log}"
  events="-"
  if [[ -f "${results}/${name}.events.csv" ]]; then
    events="$(awk -F, 'NR > 1 && $2 != "initial"' "${results}/${name}.events.csv" | wc -l)"
  fi
  verdict="no reference"
  reference="${root}/references/${name}.csv"
  if [[ -f "${reference}" && -f "${csv}" ]]; then
    compare_log="${results}/${name}.compare.txt"
    if "${build}/tools/hdae-compare" "${reference}" "${csv}" --report "${results}/${name}.compare" \
        > "${compare_log}" 2>&1; then
      verdict="agrees"
    else
      verdict="DIFFERS (see ${compare_log#"${root}"/})"
      failures=$((failures + 1))
    fi
  fi
  plot="-"
  if [[ -f "${csv}" ]] && "${root}/scripts/plot.sh" "${csv}" "${results}/${name}.png" \
      > "${results}/${name}.plot.log" 2>&1; then
    plot="${results#"${root}"/}/${name}.png"
  fi
  rows+=("$(printf '%-20s %-8s %-7s %-40s %s' "${name}" "${ran}" "${events}" "${verdict}" "${plot}")")
done

printf '\n%-20s %-8s %-7s %-40s %s\n' "example" "run" "events" "reference" "plot"
printf '%s\n' "${rows[@]}"
printf '\nOther parameters: build/release/tools/hdae info <example>, then hdae run <example> --set NAME=VALUE\n'
if [[ ${failures} -gt 0 ]]; then
  echo "run.sh: ${failures} problem(s), see the logs named above" >&2
  exit 1
fi
