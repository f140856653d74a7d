#!/usr/bin/env bash
# Builds the benchmark programs of bench/ in Release (own build directory), runs them all and
# writes docs/benchmarks.md: hdae against raw SUNDIALS IDA (overhead, events), sparse scaling,
# jump solves, large results, SciPy at equal accuracy, hdae-compare on wide files, the cost of
# recording (table, CSV, HDF5), memory and set-up at scale, OpenMP vectors against serial
# ones, index reduction, and models reduced by hdae against forms reduced by hand at equal
# accuracy, with the machine they ran on.
#
#   scripts/bench.sh                 full run (several minutes), writes docs/benchmarks.md
#   scripts/bench.sh --smoke         every benchmark once at tiny sizes (well under a minute
#                                    after the build), writes <build dir>/benchmarks-smoke.md
#   options: --build-dir DIR (default build/bench), --output FILE
#
# Exits non-zero when a benchmark fails or when hdae and the raw-IDA programs disagree on
# IDA's counters (they solve the same problem with the same settings, so any difference
# means hdae drives IDA differently from what the document claims).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
smoke=0
build_dir="${root}/build/bench"
output=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --smoke) smoke=1 ;;
    --build-dir) build_dir="$2"; shift ;;
    --output) output="$2"; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [[ -z "${output}" ]]; then
  if [[ ${smoke} -eq 1 ]]; then output="${build_dir}/benchmarks-smoke.md"; else output="${root}/docs/benchmarks.md"; fi
fi
command_line="scripts/bench.sh"
[[ ${smoke} -eq 1 ]] && command_line="scripts/bench.sh --smoke"

echo "bench.sh: building in ${build_dir} (Release)" >&2
mkdir -p "${build_dir}"
# The compile commands are those scripts/tidy.sh checks bench/ with (the developer build has
# no benchmarks).
cmake -S "${root}" -B "${build_dir}" -DCMAKE_BUILD_TYPE=Release -DHDAE_BUILD_BENCHMARKS=ON \
  -DHDAE_BUILD_TESTS=OFF -DHDAE_BUILD_EXAMPLES=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  > "${build_dir}/configure.log" 2>&1 ||
  { cat "${build_dir}/configure.log" >&2; exit 1; }
programs=(overhead scaling events jump restart rows compare recording memory reduction threads
  higher-index sensitivities link-chain work-precision)
cmake --build "${build_dir}" -j2 --target "${programs[@]/#/hdae-bench-}" >&2
bin="${build_dir}/bench"

tmp="$(mktemp -d)"
trap 'rm -rf "${tmp}"' EXIT
flags=()
[[ ${smoke} -eq 1 ]] && flags=(--smoke)
status=0
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
started="$(date -u '+%Y-%m-%d %H:%M UTC')"
seconds_start=${SECONDS}

# run NAME OUTFILE PROGRAM ARGS...: runs one benchmark; a failure is noted in the document.
run() {
  local name="$1" out="$2"
  shift 2
  echo "bench.sh: ${name}" >&2
  local rc=0
  "$@" > "${out}" 2> "${out}.err" || rc=$?
  if [[ ${rc} -ne 0 ]]; then
    status=1
    {
      echo
      if [[ ${rc} -eq 3 ]]; then
        echo "**hdae and raw IDA disagree on IDA's counters in this table (see above).**"
      else
        echo "**This benchmark failed (exit ${rc}):**"
        echo '```'
        tail -n 20 "${out}.err"
        echo '```'
      fi
    } >> "${out}"
  fi
}

run "overhead" "${tmp}/overhead.md" "${bin}/hdae-bench-overhead" "${flags[@]}"
run "scaling (KLU)" "${tmp}/scaling_klu.md" "${bin}/hdae-bench-scaling" --solver klu "${flags[@]}"
run "scaling (dense)" "${tmp}/scaling_dense.md" "${bin}/hdae-bench-scaling" --solver dense "${flags[@]}"
run "events" "${tmp}/events.md" "${bin}/hdae-bench-events" "${flags[@]}"
run "jump" "${tmp}/jump.md" "${bin}/hdae-bench-jump" "${flags[@]}"
run "restart" "${tmp}/restart.md" "${bin}/hdae-bench-restart" "${flags[@]}"
run "rows" "${tmp}/rows.md" "${bin}/hdae-bench-rows" "${flags[@]}"
run "compare" "${tmp}/compare.md" "${bin}/hdae-bench-compare" "${flags[@]}"
run "recording" "${tmp}/recording.md" "${bin}/hdae-bench-recording" "${flags[@]}"
run "memory" "${tmp}/memory.md" "${bin}/hdae-bench-memory" "${flags[@]}"
run "reduction" "${tmp}/reduction.md" "${bin}/hdae-bench-reduction" "${flags[@]}"
run "higher index" "${tmp}/higher_index.md" "${bin}/hdae-bench-higher-index" "${flags[@]}"
run "sensitivities" "${tmp}/sensitivities.md" "${bin}/hdae-bench-sensitivities" "${flags[@]}"
run "link chain" "${tmp}/link_chain.md" "${bin}/hdae-bench-link-chain" "${flags[@]}"
doubles_sizes=(--links 10,100,1000)
[[ ${smoke} -eq 1 ]] && doubles_sizes=()
run "link chain, doubles only" "${tmp}/link_chain_doubles.md" "${bin}/hdae-bench-link-chain" \
  "${flags[@]}" --evaluation doubles "${doubles_sizes[@]}"
# Threads: 10^5 masses in five rounds with libgomp's default waiting (spin, then sleep) and
# with OMP_WAIT_POLICY=passive (sleep at once); 10^6 masses (3 10^6 unknowns, about 3 GiB)
# passive, to a shorter stop time and without events, in full runs only.
run "threads" "${tmp}/threads.md" env -u OMP_WAIT_POLICY "${bin}/hdae-bench-threads" "${flags[@]}"
run "threads (passive)" "${tmp}/threads_passive.md" \
  env OMP_WAIT_POLICY=passive "${bin}/hdae-bench-threads" "${flags[@]}"
if [[ ${smoke} -eq 0 ]]; then
  run "threads (10^6 masses)" "${tmp}/threads_big.md" env OMP_WAIT_POLICY=passive \
    "${bin}/hdae-bench-threads" --masses 1000000 --rounds 5 --stop-s 0.2 --pulses 0
else
  : > "${tmp}/threads_big.md"
fi

# Work and precision: hdae's integrators and SciPy's methods over sweeps of tolerances, five
# rounds in which both sides alternate (bench/work_precision.py runs hdae-bench-work-precision).
if [[ -x /usr/bin/python3 ]]; then
  wp_flags=(--rounds 5)
  [[ ${smoke} -eq 1 ]] && wp_flags=(--smoke)
  run "work and precision" "${tmp}/work_precision.md" /usr/bin/python3 \
    "${root}/bench/work_precision.py" "${bin}/hdae-bench-work-precision" "${wp_flags[@]}"
else
  echo "/usr/bin/python3 is not installed; the comparison was skipped (apt-get install python3-scipy)." > "${tmp}/work_precision.md"
fi

# The Python package (bench/python_bench.py): it is not part of this build, so it is taken from
# the release preset's build (cmake --preset release && cmake --build --preset release, or
# scripts/run.sh) when it is there.
python_dir="${root}/build/release/python"
if [[ -x /usr/bin/python3 ]] && compgen -G "${python_dir}/hdae/_hdae*.so" > /dev/null; then
  python_flags=("${flags[@]}")
  if [[ -x "${root}/build/release/examples/hdae-ideal-clutch" ]]; then
    python_flags+=(--programs "${root}/build/release/examples")
  fi
  run "python" "${tmp}/python.md" /usr/bin/python3 "${root}/bench/python_bench.py" --pythonpath "${python_dir}" "${python_flags[@]}"
  run "python model forms" "${tmp}/python_forms.md" /usr/bin/python3 "${root}/bench/python_forms_bench.py" --pythonpath "${python_dir}" "${flags[@]}"
else
  echo "Skipped: no Python package in build/release/python (build the release preset, which builds it, and /usr/bin/python3)." > "${tmp}/python.md"
  : > "${tmp}/python_forms.md"
fi

# Instruction counts (valgrind's callgrind counts instructions exactly, so these ratios do not
# depend on the load of the machine). Full runs only: callgrind is about 50x slower.
# top_functions FILE COUNT [--inclusive=yes]: the largest entries of a callgrind profile, without
# the benchmark's own frames and SUNDIALS' anonymous internals.
top_functions() {
  callgrind_annotate ${3:-} "$1" 2> /dev/null |
    grep -E '^ *[0-9,]+ \([ 0-9.]+%\) ' |
    grep -vE 'PROGRAM TOTALS|libc-start|below main|ld-linux|[?]{3}:main |bench::|_Function_handler|0x[0-9a-f]+ \[' |
    grep -vE 'libsundials|/math/|libm\.so' |
    sed -E 's/ \[[^]]*\]$//; s/std::span<([a-z ]+), 18446744073709551615ul>/span<\1>/g; s/[?]{3}://' |
    cut -c1-140 | head -n "$2" || true  # an empty profile lists nothing, not an error
}
callgrind_md="${tmp}/callgrind.md"
events_profile_md="${tmp}/events_profile.md"
jump_profile_md="${tmp}/jump_profile.md"
: > "${callgrind_md}"
: > "${events_profile_md}"
: > "${jump_profile_md}"
if [[ ${smoke} -eq 0 ]] && command -v valgrind > /dev/null; then
  echo "bench.sh: callgrind" >&2
  {
    echo "| problem | hdae instructions | raw IDA instructions | hdae / raw | target |"
    echo "| --- | --- | --- | --- | --- |"
  } >> "${callgrind_md}"
  for case_name in pendulum robertson chain dense-chain ball; do
    declare -A ir=()
    for who in hdae raw; do
      valgrind --tool=callgrind --callgrind-out-file="${tmp}/cg.${case_name}.${who}" \
        --toggle-collect="*measured_${who}_run*" \
        "${bin}/hdae-bench-overhead" "--callgrind-${who}" "${case_name}" 2> "${tmp}/cg.${case_name}.${who}.log" > /dev/null || status=1
      ir[${who}]="$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "${tmp}/cg.${case_name}.${who}.log")"
    done
    if [[ -n "${ir[hdae]}" && -n "${ir[raw]}" ]]; then
      label="${case_name}"
      target=1.02
      if [[ "${case_name}" == "ball" ]]; then label="elastic ball, 1000 impacts"; target=1.08; fi
      # The targets are the pendulum's, Robertson's and the ball's; the chains are shown beside.
      if [[ "${case_name}" == "chain" ]]; then label="mass-spring chain (KLU)"; target=-; fi
      if [[ "${case_name}" == "dense-chain" ]]; then label="mass-spring chain (dense)"; target=-; fi
      awk -v c="${label}" -v h="${ir[hdae]}" -v r="${ir[raw]}" -v t="${target}" \
        'BEGIN { verdict = t == "-" ? "-" : sprintf("<= %s: %s", t, (h / r <= t ? "met" : "**not met**"));
                 printf "| %s | %d | %d | %.3f | %s |\n", c, h, r, h / r, verdict }' >> "${callgrind_md}"
    fi
  done
  {
    echo
    echo "Functions outside SUNDIALS with the largest own (exclusive) instruction counts in the"
    echo "hdae pendulum run:"
    echo
    echo '```'
    top_functions "${tmp}/cg.pendulum.hdae" 14
    echo '```'
  } >> "${callgrind_md}"
  {
    echo "Inclusive instruction counts of hdae's functions in the elastic-ball run with 1000 impacts"
    echo "(the raw loop's total is in section 1's instruction table):"
    echo
    echo '```'
    top_functions "${tmp}/cg.ball.hdae" 16 --inclusive=yes
    echo '```'
  } >> "${events_profile_md}"
  # The clamped chain with 3334 masses (10^4 unknowns), counted only inside the event
  # iterations (t0, clamp, release) and the algebraic-variable probe.
  valgrind --tool=callgrind --callgrind-out-file="${tmp}/cg.jump.%p" \
    --toggle-collect='hdae::detail::EventIteration::run*' \
    --toggle-collect='hdae::reinit::Reinitializer::algebraic_unknowns*' \
    "${bin}/hdae-bench-jump" --masses 3334 > /dev/null 2>&1 || status=1
  jump_profile="$(ls -S "${tmp}"/cg.jump.* 2> /dev/null | head -n 1)"
  if [[ -n "${jump_profile}" ]]; then
    {
      echo "Where the event handling's instructions go (callgrind, 3334 masses = 10^4 unknowns,"
      echo "counted inside the three event iterations - t0, clamp, release - and the"
      echo "algebraic-variable probe only; inclusive counts):"
      echo
      echo '```'
      top_functions "${jump_profile}" 18 --inclusive=yes
      echo '```'
    } >> "${jump_profile_md}"
  fi
elif [[ ${smoke} -eq 0 ]]; then
  echo "valgrind is not installed: no instruction counts in this run." >> "${callgrind_md}"
fi

# What the re-initialization keeps per run (engine/src/reinit/workspace.hpp), for the prose
# of sections 2 and 4.
jump_profile_text="The re-initialization keeps what does not change during a run in one
\`reinit::Workspace\` (engine/src/reinit/workspace.hpp): the sparsity pattern with its colouring
and a template matrix, built once per run by \`Workspace::pattern\`, and two square solvers,
one for the jump solves and one for the consistent derivatives (whose matrix is factorized over
its non-zero entries only, a pattern of its own), each of which keeps KLU's symbolic analysis (\`klu_analyze\`, AMD ordering) for as long as the pattern
is the same and refactorizes numerically (\`klu_refactor\`) in the previous pivot order while
the row kinds stay the same, falling back to a factorization with pivot search when that
order meets a zero pivot, a pivot growth a hundred times the pivot search's, or a condition
estimate below the singularity threshold (engine/src/linalg/linear_solver.cpp). What is left
in the profile is the numeric work of each event: the coloured difference Jacobians (a
handful of residual calls each, independent of N), KLU's factorizations and its condition
estimate (\`klu_condest\`, which decides whether J is singular), and the one pattern build."

# The machine.
cpu="$(lscpu 2> /dev/null | sed -n 's/^Model name: *//p' | head -n 1)"
cores="$(nproc)"
memory="$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
compiler="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "${build_dir}/CMakeCache.txt")"
compiler_version="$("${compiler:-c++}" --version | head -n 1)"
sundials="$(sed -n 's/^#define SUNDIALS_VERSION "\(.*\)"/\1/p' /usr/include/sundials/sundials_config.h 2> /dev/null || true)"
klu="$(dpkg-query -W -f='${Version}' libklu1 2> /dev/null || echo unknown)"
scipy="$(/usr/bin/python3 -c 'import scipy, numpy; print("SciPy", scipy.__version__, "/ NumPy", numpy.__version__)' 2> /dev/null || echo 'SciPy not installed')"
commit="$(git -C "${root}" rev-parse --short HEAD 2> /dev/null || echo unknown)"
if [[ -n "$(git -C "${root}" status --porcelain 2> /dev/null | head -n 1)" ]]; then commit="${commit} (with local changes)"; fi
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
elapsed=$((SECONDS - seconds_start))

mkdir -p "$(dirname "${output}")"
{
cat << EOF
# Benchmarks

Generated by \`${command_line}\` on ${started} (commit ${commit});
the benchmarks took ${elapsed} s. Everything below, tables and machine description, comes from that one run; to
reproduce it, run the same command from the repository root (it builds the programs of
\`bench/\` in Release in \`build/bench\`, runs them and rewrites this file).
EOF
if [[ ${smoke} -eq 1 ]]; then
  echo
  echo "**Smoke run: tiny sizes, one round each. The figures only show that every benchmark runs.**"
fi
cat << EOF

**Read the ratios, not the absolute times.** The machine is shared with other builds and
jobs, so absolute times move from run to run; every comparison therefore runs its two
contenders alternately in the same process (interleaved rounds, order swapped every round,
five rounds at least) and reports the CPU time of each, the least over the rounds: the load
only ever adds time, so the minimum is the run closest to the code's own cost. Contenders that
solve the same problem differently are compared at equal accuracy, each run's error against a
tight reference given beside its time; where both sides take the same steps (hdae against raw
IDA) the counters and the final states show that they agree. Where exact figures matter,
IDA's counters and valgrind's instruction counts are given: they do not depend on the load.

## Machine

| | |
| --- | --- |
| CPU | ${cpu} |
| cores | ${cores} |
| memory | ${memory} |
| compiler | ${compiler_version}, \`-O3 -DNDEBUG\` (CMake Release) |
| SUNDIALS | ${sundials} (Debian packages; KLU ${klu}) |
| Python peer | /usr/bin/python3, ${scipy} |
| load average (1, 5, 15 min) | ${load_before} before, ${load_after} after |

## 1. Overhead against raw SUNDIALS IDA

The same problems written twice: as hdae models (\`hdae::models::Pendulum\`,
\`hdae::models::MassSpringChain\`, and a Robertson index-1 DAE in \`bench/models/\`) run with
\`hdae::simulate\`, and directly against IDA's C API (\`bench/raw/\`): a context, serial
N_Vectors, \`IDAInit\`, \`IDASVtolerances\` with the same \`atol_i = abs_tol_factor * rel_tol *
nominal_i\`, algebraic unknowns in the error test as in hdae's default (\`suppress_algebraic\`
off; with it on, both call \`IDASetId\` + \`IDASetSuppressAlg\`), dense LU with IDA's own
difference-quotient Jacobian or KLU with a column-coloured finite-difference Jacobian written
against the raw arrays (same colouring rule and increments as hdae's, in code of its own), the serial
vectors carrying hdae's compiled vector operations as hdae's own do (docs/design.md, "Vector
operations": Debian's SUNDIALS is built without optimisation), and
\`IDASolve\` in \`IDA_ONE_STEP\` mode with the stop time set, each output point interpolated
from the step that passed it (\`IDAGetSolution\`, what \`IDA_NORMAL\` mode does internally):
the way hdae drives IDA, so that the root finders check the same intervals and every counter
can be compared. The raw
program stores the same rows (time, x, der(x) and the model's outputs) in a \`std::vector\`.
It starts from the state hdae's initialization produced (first result row), so both solve
exactly the same initial value problem; hdae's time includes its own set-up and the
consistent-initialization step, the raw time includes creating and freeing IDA.

Because both programs hand IDA bit-identical residuals, **IDA's counters must be identical**,
and so must the final states (relative difference 0). A difference would mean hdae drives IDA
differently from a plain program.

$(cat "${tmp}/overhead.md")

$(if [[ -s "${callgrind_md}" ]]; then
  echo "#### Instructions executed (valgrind --tool=callgrind, one run each, exact)"
  echo
  cat "${callgrind_md}"
fi)

**Where the overhead goes** (the callgrind profile above, of this run). IDA executes the
same instructions in both programs; its inclusive count differs only by what the callbacks
cost. What hdae adds:

- *Per residual call*, a fixed path: IDA calls \`IdaIntegrator::residual_trampoline\`
  (engine/src/sundials/ida_integrator.cpp), which reads the three data pointers inline
  (\`NV_DATA_S\`, or \`NV_DATA_OMP\` with \`threads\` > 1, the length from the set-up; no
  allocation, no \`std::function\`) and makes
  one virtual call, \`IdaBridge::residual\` (engine/src/simulator/ida_bridge.cpp). That decides the
  cancel / wall-clock check inline (one flag when neither option is set), builds an
  \`hdae::Evaluation\` inline, calls the model's virtual \`evaluate\`, and checks the
  residuals (and crossing values, when the model has crossings) for NaN and Inf with a
  vectorized sum (\`all_finite\`, about two instructions per value; the rows are looked up
  only when the sum is not finite). On the chain the modelling layer's handles also make the
  model's residual dearer than the raw loop's (\`e.x(s_[i])\` loads the index from a
  \`std::vector<Var>\` and indexes a span, where the raw loop computes \`x[3*i]\`).
- *Per step*: IDA returns after every step (\`IDA_ONE_STEP\`, as in the raw loop); the loop
  (\`SimulationRun::take_step\`, engine/src/simulator/run_loop.cpp) notes the step and its
  output points, and copies y and yp only where a row or an event needs them.
- *Per output row*: IDA interpolates a grid row straight into \`RowRecorder\`'s row buffer
  (an event's rows are copied into it), the recorder evaluates the
  model once more only when it declares outputs, and hands the row to each row sink (the
  table's \`ResultTable::append\`).
- *Once per run*: the result columns (a formatted name per variable), the sparsity pattern and
  its colouring, and the initialization at t0 (event iteration, jump solve, consistent
  derivatives, algebraic-variable probe; section 4).

What is left is a fixed cost of a few dozen instructions per residual call and about two
hundred per output row, which shows on models whose residual itself costs a few dozen
instructions (the 2- and 3-unknown models run in well under a millisecond), and the modelling
layer's indexing on the chain. The loop's copy of IDA's vectors is kept: the event
iteration works on the simulator's own x and der(x), and an O(n) copy per output row is
small against the steps between rows. The time table gives the CPU time of the benchmark's
thread (\`CLOCK_THREAD_CPUTIME_ID\`), which leaves out the time other processes held the core,
the least over the rounds; the targets are judged on the instruction ratios, the exact
measure of what is left.

## 2. Sparse scaling

\`hdae::models::MassSpringChain\` (3 unknowns per mass, 8 structural non-zeros per mass plus
the diagonal), from about 10^2 to 10^5 unknowns. Each run is a fresh child process whose peak
resident set (\`ru_maxrss\` from \`wait4\`) is reported; hdae and raw children alternate. The
cost per step is the *marginal* one: each child runs to the stop time and, before that, to half
of it, and the per-step figure is (difference of the least CPU times of the two runs over five
rounds) / (step difference), free of set-up and initialization, which the whole-run columns
include; "n/a" where that difference is not positive, as at the smallest sizes, where a run
takes about as long as the noise between rounds. With KLU, a Jacobian costs as many
residual calls as the pattern has colours, whatever the size; with the dense solver IDA's
difference quotient costs n residual calls and the LU n^3/3 flops.

$(cat "${tmp}/scaling_klu.md")

$(cat "${tmp}/scaling_dense.md")

With KLU, the residual calls per Jacobian equal the colour count (4 for the chain) at every
size, and so the time of one coloured difference Jacobian per unknown (\`Statistics::jacobian_time_s\`
divided by the Jacobian count; the dense solver's Jacobian is formed inside IDA and not timed
separately) stays nearly constant. The marginal time per step and unknown stays within a small factor from 10^2 to
10^5 unknowns (it rises at the largest sizes, whose vectors and factors no longer fit in the
caches; the machine's noise adds spread), i.e. the cost per step is close to linear in N;
hdae's and raw IDA's marginal costs per step agree. The
whole-run ratio is above one because of hdae's one-time work at t0, a sizeable part of these
short runs (compare the whole-run and per-step columns): the initialization's event iteration,
jump solve and consistent derivatives, with the sparsity pattern built once for the jump
solves (besides IDA's copy) and ordered by KLU once (section 4 shows the profile).
Peak memory is higher in hdae by the model description (names of every variable and equation)
and the patterns. The dense solver's cost per step and unknown grows with n, as the n-call
difference quotient and the n^3 LU make it.

## 3. Event throughput

An elastic bouncing ball (\`hdae::models::BouncingBall\` with e = 1 and no rest rule) through
hdae's full event machinery: the left-limit row, the event iteration (crossing helpers,
the model's event call, the jump solve and consistent derivatives with their difference
Jacobians, the re-check pass), the right-limit row, the event log, the chattering detector
and \`IDAReInit\`. The baseline is a hand-written raw-IDA loop with the same root function
(-h, moved off zero after each impact by the same round-off offset as hdae's), the same
direction, \`v := -v\`, the analytic
derivatives and \`IDAReInit\`. The impacts are evenly spaced, so the chattering detector
never fires.

$(cat "${tmp}/events.md")

What an event costs hdae beyond the bare loop: IDA's work is identical (same steps, residual
and root-function calls); hdae adds its residual-path overhead on every call (section 1), a
whole model evaluation for every root-function call (\`IdaBridge::roots\` evaluates the model to
collect the crossing values, the residuals are discarded), and per event the event
iteration: two model evaluations, the jump solve (for the ball one evaluation of the jump
equations shows that nothing has to jump), the consistent derivatives (here J = M_d: without constraint rows the
differences in x and t are skipped) with a small dense LU, the event record and the
chattering check, allocating on the heap. The target for this benchmark is a CPU-time ratio
of at most 0.9 (hdae's events cheaper than the raw loop's at its accuracy); the instruction
ratio's target (section 1) is 1.08.

$(cat "${events_profile_md}")


## 4. Jump solve with many constraints switching at once

\`bench/models/clamped_chain.hpp\`: a chain whose N masses are all clamped by one time event
(N dynamics rows become constraint rows \`v_i = 0\`, every velocity jumps to zero through the
brake's impulse) and released later. The model counts its own residual calls and the time from
its event call to the first IDA step after the restart: the second event-iteration pass, the
jump solve (Newton with coloured difference Jacobians and KLU), the consistent derivatives,
the right-limit row and the algebraic-variable probe. The residual calls do not depend on N;
the time grows linearly with N and stays at a few IDA steps' worth.

$(cat "${tmp}/jump.md")

$(cat "${jump_profile_md}")

${jump_profile_text}

### Restarts after events

What an event costs the integration after it. The chain of section 4, not clamped, runs without
events, with time events that change nothing IDA sees (IDA goes on through them without a
restart) and with events that switch a force on the free end (der_x jumps, so IDA restarts at
order 1 and climbs back to the step size and order it had), the latter with IDA's own first step
after the restart (\`SimulationOptions::restart_step = kIdaEstimate\`, the default), with the
step from before the event and the quicker climb that goes with it (\`kFromHistory\`), with
IDA's history shifted to the right limit instead of a restart at order 1 (\`kKeepOrder\`), and as a
program written against IDA directly that switches the force by hand and restarts IDA at the same
instants (\`IDAReInit\`, IDA's own first step). The extra steps and Jacobians per event are the
differences to the run without events (\`bench/restart_main.cpp\`; docs/design.md, "Restarts").
The second table counts the raw program's steps over the last third of each interval between
events, when IDA has long climbed back, with events that change nothing and with the force
switched.

$(cat "${tmp}/restart.md")

A time event IDA goes on through costs only the step shortened to end on it and the steps to
grow back, which depends on where the events fall in IDA's steps (from -0.5 to 7 per event in
runs with 10 to 40 events on 3334 and 10000 masses). A restart costs hdae what it costs a
program that drives IDA directly (the raw row), and that cost is the climb back, not the
solution the switched force sets off: once IDA has climbed back, the chain with the force
switched takes no more steps than without (second table). \`kFromHistory\` starts higher and
climbs faster (a converged corrector and a step growth of up to 10 per step until the step before
the event is back), which saves about two thirds of the extra steps and half of the extra
Jacobians, at the price of restarted steps that are only as accurate as the tolerance asks. The
extra steps per switch depend on how long the force stays switched, since IDA climbs back to
longer steps where the solution lets it (with \`kFromHistory\` on 3334 masses: 17 with 10
events, 8 with 20, 10 with 40). \`kKeepOrder\` goes on at the order and step IDA had, from IDA's history
shifted to meet the right limit in value, slope and curvature (the consistent derivatives
differentiated along the solution). A force switch changes the curvature of the end mass's
position; with it in the history, what the history still misses starts at the third
derivative, and IDA goes on as if the event had changed nothing: the row costs about what the
events that change nothing cost. On 3334 masses the end mass's speed at 2 s (1.7e-3 m/s) is then
within 2.5e-9 m/s of a run at rel_tol 1e-10, against 5e-10 under the default restart and 1e-9
under \`kFromHistory\`; these global errors move by as much with where the steps fall (a build
whose first step is a half or a tenth of the step before the event gives 5e-11 m/s, a quarter
6e-9 m/s).
On 33334 masses: 1.5e-9 m/s, against 1.5e-10 m/s under the default. Where an event changes only value
and slope (a ball's bounce) the shifted history is exact and the ball takes about half the
steps of the default at its accuracy (docs/design.md, "Restarts").

## 5. Results at scale

A run with 10^6 result rows, in hdae's three ways of keeping them: the whole table in memory
(\`hdae::ResultTable\`, one \`std::vector<double>\`) written with \`hdae::write_csv\` afterwards;
in memory and streamed to CSV while running (\`SimulationOptions::sinks\` memory and csv); and
streamed only (csv alone), whose memory stays bounded by the stream's buffer
whatever the number of rows. The raw loop keeps its rows in one vector and writes no file.

$(cat "${tmp}/rows.md")

Writing CSV costs more than computing the rows (the values are formatted with the shortest
representation that reads back exactly); streaming moves that cost into the run and removes
the table's memory.

## 6. Work and precision against SciPy

Each of hdae's integrators (\`SimulationOptions::method\`) and each suitable method of SciPy's
\`solve_ivp\` (Debian's python3-scipy) on four problems, every one swept over rtol 1e-4 to
1e-10 with atol 0.01 rtol times each unknown's nominal on both sides
(\`bench/work_precision_main.cpp\` for hdae, \`bench/work_precision.py\` for SciPy and the
tables): Robertson's kinetics as an explicit ODE to 40 s (error: the largest relative error of
the three species at 40 s, against SciPy's Radau at rtol 1e-12), the damped pendulum
(L = 0.5, m = 1, d = 0.1, phi0 = 60 deg, g = 9.81) with 501 output rows (error: max of
|phi - phi_ref| and |w - w_ref| at 10 s), the bouncing ball (h0 = 1, e = 0.7, g = 9.81, at rest
below a rebound speed of 0.01 m/s, 18 impacts; error: the largest impact-time error against the
closed form t_k = t1 (1 + 2 (e + ... + e^(k-1))), SciPy with a terminal event and a restart
per impact) and a chain of 100 masses and springs as an
explicit ODE (k = 100 N/m, m = 1 kg, d = 0.5 N s/m, frequencies up to 20 rad/s, 501 rows;
error: the largest displacement error at 10 s), the references of the last two SciPy's DOP853
at rtol 1e-13. The right-hand sides are the same formulas, in C++ for hdae and in numpy for
SciPy. A run's time is the CPU time of one call (hdae: the calling thread's; SciPy: the
process's), averaged over as many calls as last 20 ms, and the minimum over five rounds in
which hdae's program and SciPy alternate. The first table gives, for each target error, the
least CPU time each side needs to reach it, interpolated in log(error) against log(time)
between the neighbouring tolerances of a method's sweep ("-": no method of that side reached
it); the project's goal is a ratio of at least 10 with \`auto\`. The tables after it give
every run as error / CPU time.

$(cat "${tmp}/work_precision.md")

## 7. Comparing wide results

\`hdae-compare\` on two identical files of many columns (\`bench/compare_main.cpp\`): a chain of
33000 masses has 10^5 columns. Every name is looked up by hash (\`ResultTable\`'s index and
the comparison's own), the columns are copied out of the row-major tables 512 at a time, and
where each checked point falls on the time axes (binary searches) is found once for all
signals, so the comparison costs a few operations per value. Reading is a \`std::from_chars\`
per value into a table reserved from the file's size; first touching the tables' memory
(8 bytes per value) is a visible part of it on a virtual machine, whose page faults are dear.

$(cat "${tmp}/compare.md")

## 8. Recording

What recording the rows of a large run costs (\`bench/recording_main.cpp\`): the chain of 10^4
masses with KLU to 10 s, its 501 grid rows of 60001 columns kept nowhere (the solve: the rows
are made, interpolated from IDA's last step, outputs evaluated, assembled, and only counted),
kept in the in-memory table (\`TableSink\`), streamed to CSV (\`CsvSink\`), or streamed to HDF5
(\`hdae::Hdf5Sink\`: chunks of about 64 KiB, a row of the chain being a chunk by itself, appended
to extendible datasets without chunk cache or fill values, flushed every 2 s); and, for what
making the rows costs, the same run with two rows only (every run starts with the same first
step, so all take the same IDA steps). Each run is a child process, the ways taking turns
round after round. Two measures: the run's CPU time (user + system) against the solve's,
the least of five rounds, which includes what recording costs outside the sink but moves with
the machine's load; and the CPU time inside the sink's calls (the thread's CPU clock around
\`begin\`, \`append\`, \`end\`) over the CPU time of the rest of the same run, a ratio the load
changes little (the least of the rounds). The targets: CSV at most 10 % of the solve, checked
on the former, since its text is made on a writer thread outside the sink's calls; HDF5 at most
3 %, checked on the latter. Per row and per value: the sink's CPU time divided by
the rows and by the values; bytes per value count time as one value of each row. The streamed
CSV makes and writes its text on a writer thread of its own (docs/design.md, "The data path"):
the run's thread only copies each row, so its CPU in the sink is that copy, the process's CPU
time holds the writer's work as well, and the run time (wall clock) shows what overlapping the
two threads on two cores gains.

$(cat "${tmp}/recording.md")

The streamed CSV's CPU time, the writer thread's included, is what the digits cost; its run
time is shorter, since the text is made on the other core. The in-memory table and HDF5 move
with the machine's load from run to run.

## 9. Python

What the Python package adds (\`bench/python_bench.py\`, against the package of
\`build/release/python\`). First, a bundled model run from Python: the wall time of
\`hdae.simulate(model, ...)\` measured in Python (the model built beforehand) against the
engine's own run time inside that call (\`result.statistics["wall_time_s"]\`); the ratio is
the least of the per-round ratios, each model's rounds in one block after a warm-up (run
alternately, the chain's freed 24 MB table would hand page faults to the next clutch run). The
difference is what the call does outside the engine's own timer (the options from keywords,
the simulator's set-up, the binding, the \`Result\` handed to Python). Beside it, when \`build/release/examples\` is
there, the example programs on the same runs: a process each, which also starts up and writes
its CSV, so that ratio is what a script gains by calling the package instead of the program
(the least times of eleven rounds in which both alternate). Second, the throughput of \`hdae.sweep\` over the clutch's J2
on a Dask LocalCluster of one and of two worker processes (one thread each; the cluster is
started and every worker has imported hdae before the clock starts). Third, what a sweep
point costs beyond its run, at three sizes: \`hdae.sweep\` over the pendulum's length with runs
of 10 ms of model time (far shorter than a Dask task's scheduling), on two worker processes;
the wall time from making the points to the finished table, and the calling process's peak
resident size above its size before, per point (the points, the rows and the table). Points
travel in batches of up to 50 a task with at most 4 tasks per worker thread in flight, so
both stay flat as the sweep grows.

$(cat "${tmp}/python.md")

Models written in Python in their three forms (\`bench/python_forms_bench.py\`): element by
element (\`evaluate\`), a numpy \`residual(self, t, x, der_x, r)\`, and a numba cfunc
(\`set_compiled_residual\`, called without the GIL), each run with the methods \`ida\`,
\`auto\` (both problems are explicit ODEs: the explicit Runge-Kutta pair, CVODE's BDF while
the stiffness check asks for it) and \`erk\` (the fastest at each accuracy, named), against
SciPy's \`solve_ivp\` with a numpy right-hand side of the same equations (LSODA, DOP853,
Radau, BDF; the fastest at each accuracy), at equal accuracy: every
contender sweeps its tolerance over half decades from 1e-3 to 3e-6 and decades to 1e-8
(atol = rtol / 100 for SciPy; hdae's default), its error is the largest difference of the
unknowns at the end from a tight reference (DOP853 at rtol 1e-13 for the chain, Radau at rtol
1e-12 with the Jacobian for Van der Pol), its cost the CPU time of a run (the model made once
beforehand, as SciPy's right-hand side is), the minimum over interleaved rounds, interpolated
in log-log to the target error. The chain (s' = v, v' = f_next - f - d v, f = k (s - s_prev),
m = 1, k = 100, d = 0.5, from s_i = i/N at rest) declares its pattern (used where the run
needs a Jacobian). The goals: numpy form at least 2 times, numba form at least 10 times
faster than SciPy's best.

$(cat "${tmp}/python_forms.md")

## 10. Memory and set-up at scale

The chain of section 2 with KLU from 10^3 to 10^6 masses (3 10^3 to 3 10^6 unknowns), run
to 1 s by hdae and by the raw-IDA program of section 1 (\`bench/memory_main.cpp\`), each run
in a fresh child process whose peak resident set (\`ru_maxrss\`) is its own; bytes per
unknown count what a run holds above an idle child forked at the same moment. Both record
time and the energy only, at 11 rows, so the table is no part of what is measured; the raw
program starts from hdae's first row (read from a file, so it inherits none of hdae's
memory). hdae's set-up is the model's constructor (declaring 3N named variables and
equations and the pattern), the \`Simulator\`'s constructor (validation, sparsity pattern and
colouring, result columns) and \`initialize()\` (event iteration, jump solve and consistent
derivatives at t0); its solve is \`advance_to(1 s)\`. The raw set-up is everything before
IDA's first step (pattern, colouring, vectors, \`IDAInit\`, KLU). The targets: at 10^5
masses hdae's bytes per unknown at most 1.1 times raw IDA's; at 10^6 masses hdae's set-up at
most 10 % of its solve.

$(cat "${tmp}/memory.md")

Where hdae's extra memory goes (the last table, and the resident set after each phase that
\`hdae-bench-memory --profile --masses N\` prints for one run in-process, e.g. under
heaptrack). A model that declares its unknowns, rows and pattern as indexed families (the
chain's positions, velocities and spring forces: three families; its rows: three; its
pattern: a few \`declare_dependency(Eqs, Vars, offset)\` entries) keeps one description per
family, a start value per unknown, and makes names such as \`v[7]\` only when a message or a
result column asks for one; so the model is a few bytes per unknown, not the ~340 bytes of one
\`VariableInfo\` and one \`EquationInfo\` with their strings per unknown. The \`Simulator\`
adds the sparsity pattern in 32-bit indices with its colouring (built once, shared by IDA's
Jacobian and the re-initialization) and x, der(x) and the row buffers; only the result
columns a run selects are made. \`initialize()\` adds the re-initialization's KLU factors:
kept for the run when an event can follow (later events refactorize in the same pivot order),
freed after t0 when the model has no crossings and no time events, as the chain. What is left
above raw IDA is the pattern and x, der(x): at 10^4 masses and above hdae's bytes per unknown
are within a few per cent of raw IDA's. hdae's set-up stays about twice raw IDA's (the
initial event iteration with its jump solve, a KLU factorization raw IDA does not make),
a few per cent of the solve.

## 11. Index reduction

What reducing the index costs (\`bench/reduction_main.cpp\`); what a reduced model costs
against the same model reduced by hand, at equal accuracy, is section 13. First, the structure
analysis (\`hdae::analyze_index\`: signature detection by coloured perturbations, Pryce's
offsets, rank check of the system Jacobian) of a chain of masses joined by rigid rods
(\`bench/models/rod_chain.hpp\`), 3N - 1 unknowns, index 3, the least wall and CPU time of
seven rounds. Second, the whole reduction at
growing size: a planar chain of N rigid links in Cartesian coordinates
(\`bench/models/pendulum_chain.hpp\`, 5N unknowns, index 3, N degrees of freedom) released at
rest from the horizontal and run for 0.1 s at rel_tol 1e-6. "set-up" is the CPU time of
building the reduced model (structure, layout, state selection, consistent start), "per step"
the run's CPU time over IDA's steps; each "p" is the exponent of the growth against the size
before (cost ~ N^p). The rods and the energy (zero at the start) are read at the last row.

$(cat "${tmp}/reduction.md")

The structure analysis grows about linearly with the size. The highest-value transversal runs the sparse
Hungarian method in phases: each phase is one Dijkstra search from all unmatched rows at once,
then depth-first augmentations over the entries of zero reduced cost, and the chain needs one
phase. Before, one search per row swept back through all the rods matched before it: 28 s at
10^5 unknowns. Pryce's offsets come from one longest-path search started from the
transversal's dual values instead of his fixed-point iteration, and the signature detection
keeps its probes in flat lists. What remains are linear passes: at 10^5 unknowns about half is
the detection (model evaluations and their bookkeeping), a quarter the validation of the
model's structure (its names checked for repeats), a tenth the Sigma-method, and less KLU's
factorization for the rank check.

The rods hold to round-off and the energy to the tolerance. Section 15 measures the same chain,
as the model library has it, at the sizes of machines.

## 12. Threads

SUNDIALS' OpenMP N_Vector against its serial one (\`SimulationOptions::threads\`, \`--threads\`;
\`bench/threads_main.cpp\`): the chain with KLU, without events and with time events that
switch a force on its free end (the pulsed chain of section 4's restarts), each run serial and
with two threads in the same process, alternating. With the OpenMP vector every vector
operation of IDA (the BDF predictor and corrector updates, the weighted norms of the error test
and of the Newton iteration) is a parallel loop; the model's residual, the coloured Jacobian,
KLU, the events and the recording stay serial. The integration (\`advance_to\` after
\`initialize\`) is where the vector operations are; set-up and initialization (model
structure, pattern, colouring, the event iteration at t0) are serial and are in the
whole-run ratio only. A speed-up below 1 means the threads made the run slower.

$(cat "${tmp}/threads.md")

$(cat "${tmp}/threads_passive.md")

$(cat "${tmp}/threads_big.md")

The counters are identical and the last rows agree to round-off (two threads always add their
two partial sums in the same way; tests/simulator/test_threads.cpp checks the chain against
the serial run). Whether the threads pay depends on the machine more than on hdae. Each vector
operation opens a parallel region and ends with a barrier, many of them per step: a thread
that is not running when a region starts delays the whole operation. With libgomp's default
the idle thread spins before it sleeps, which on a machine whose cores also serve other work
takes time slices from the thread that has work: the runs get several times slower (first
table). With \`OMP_WAIT_POLICY=passive\` the idle thread sleeps at once; on the shared 2-core
machine these benchmarks were written on, two threads were then as fast as one at 10^5 masses
(3 10^5 unknowns) and slower below, and where they came out ahead the machine was overloaded
and the second thread only took a larger share of the cores from other processes (CPU time
threaded / serial near 1: no work was saved). Events dilute any gain further, since the event
iterations, jump solves and restarts are serial. So \`threads\` stays 1 by default; it is
meant for machines with idle cores and models of 10^5 unknowns and more, and there it should
be tried with \`OMP_WAIT_POLICY=passive\` (read by libgomp from the environment when the
program starts) and measured with this benchmark.

## 13. Higher index

What a model of index 3 costs when hdae reduces it, against the same mechanics reduced to
index 1 by hand or written in minimal coordinates, at equal accuracy
(\`bench/higher_index_main.cpp\`). Four pairs, each with a known answer:

- the car axis of the IVP test set (\`make_car_axis()\` against \`CarAxisIndex1\`,
  models/car_axis.hpp): the error is max |y - y_ref| / (1 + |y_ref|) over the 8 positions and
  velocities at t = 3 s, y_ref the test set's reference solution (RADAU5 at tight tolerances);
- Andrews' squeezing mechanism (\`make_andrews_squeezer()\` against \`AndrewsSqueezerIndex1\`):
  the same measure over the 7 angles at t = 0.03 s, against the test set's reference (PSIDE
  at 1e-14);
- the pendulum of section 11, released at rest from the horizontal
  (\`make_cartesian_pendulum()\` against the ODE in the angle, \`Pendulum\` with phi0 = pi/2):
  max |phi - phi_ref| on the 0.01 s grid over 10 s, phi_ref from the ODE at rel_tol 1e-12;
- the double pendulum released from the horizontal (\`make_double_cartesian_pendulum()\`
  against the ODE in the angles, \`DoublePendulum\`): the larger of max |phi1 - phi1_ref| and
  max |phi2 - phi2_ref|, modulo 2 pi, on the 0.01 s grid over 2 s (the motion is chaotic: over
  longer runs the error says nothing about accuracy), the reference the angle form at rel_tol
  1e-12; and the largest |energy| on the rows, whose exact value is 0 (for scale, m g L = 4.9 J).

Both forms of a pair run with default \`SimulationOptions\` except stop_s, rel_tol and
output_interval_s (the stop time for the car axis and Andrews, whose error is taken at the
end; 0.01 s for the pendulums), at rel_tol 1e-5 to 1e-10. "CPU s" is the thread's CPU time of
one \`simulate\` call, the least of 7 rounds in which the two forms alternate (the order
swapped every round and tolerance); a sample repeats a short run on fresh models until it
lasts 50 ms. Building the model (for the reduced form the structure analysis, the reduction
and the consistent start) is outside the timer and given in the summary. At equal accuracy:
for the error the hand form reaches at rel_tol 1e-6, 1e-8 and 1e-10, the reduced form's CPU
time to reach the same error, interpolated linearly in log(error) against log(CPU time)
between the neighbouring tolerances of its sweep whose errors bracket it ("<=" when its
loosest run is already as accurate, ">" when none of its runs is), divided by the hand form's
CPU time. The targets, from the project's goals: at most 3 for the car axis and Andrews'
squeezer against the forms reduced to index 1 by hand, at most 5 for the pendulums against
the ODEs in minimal coordinates.

$(cat "${tmp}/higher_index.md")

The summary above says which targets are met in this run. The pendulums' error-test and
convergence failures in the tables are what remains after a new Newton matrix is formed once
the system Jacobian has moved by 2 % (docs/design.md, "Aged Newton matrices"). The state
selection's check allocates nothing for small stages: the system Jacobian
is filled into a pattern laid out once, and a stage of up to 40 rows is factorised on the
stack. Against the forms reduced to index 1 by hand, the reduced models take fewer steps at the same tolerance, and Andrews'
reduced form (2 states) ends far more accurate than the hand form, which integrates all 14
angles and velocities and drifts off its loops; what they lose is the cost of a step. Against
the ODEs the reduced pendulums take more steps (the tables say how many), and a step costs
several times as much: the reduced system has 7 (14) unknowns against the ODE's 2 (4), with IDA's vector
operations and dense Newton solves on all of them, besides the jets of the residual and, at the step ends it judges, the state
selection's check (the system Jacobian's rows that the selection judges, from jets of depth 1,
and one LU factorisation per stage of the reduction). The rod force, an unknown of the reduced
system, is in IDA's error test like the positions and velocities (docs/design.md, "Index
reduction", says why).
What the reduced model does per step: the residual by jets of
depth max c (truncated Taylor coefficients, docs/design.md, "Exact derivatives of equations"); the Newton matrix exactly, from jets one level deeper seeded with directions in
the unknowns; the selection judged only where IDA evaluates its root functions, and there only where its
largest exchange factor could reach the switch ratio (the Newton matrix's age is continued
from the last judgement elsewhere); a change of
states without a jump solve or a restart (IDA goes on with its history); derivatives that an
equation der(x) = v names are that variable, one unknown. The double pendulum's energy stays
within about its angle error of 0 in both forms.

## 14. Sensitivities

What forward sensitivities cost (\`SimulationOptions::sensitivities\`, docs/design.md,
"Sensitivities"; \`bench/sensitivities_main.cpp\`): the same run with none, one, two and four
of them, on the pendulum (phi0 = 1 rad) and on the chain of masses at 10, 50 and 200 masses
(parameters k and m; the augmented system is sparse and from 50 unknowns on integrated with
KLU and its coloured Jacobian).

$(cat "${tmp}/sensitivities.md")

The sensitivities enter IDA's error test (\`sensitivity_error_control\`), which takes more
steps where they vary faster than the state, and each sensitivity adds the model's unknowns
to IDA's system, whose Newton matrix is the difference quotient of the whole augmented
system: the cost grows faster than the number of sensitivities, most on the large chain, where
the Jacobian's colours and KLU's factorisation grow with the unknowns. IDAS, which factorises
the model's own matrix once for all sensitivities, cannot be linked beside IDA
(docs/design.md says why).

## 15. Reduction at the size of machines

The whole index reduction on a model the size of a machine rather than a textbook's
(\`bench/link_chain_main.cpp\`): the planar chain of N rigid links of the model library
(\`make_link_chain\`, models/link_chain.hpp; 5N unknowns, index 3, N degrees of freedom,
its sparsity pattern declared), L = 0.1 m, m = 1 kg, released at rest from the horizontal
and run for 0.2 s at rel_tol 1e-6 with default options otherwise (so KLU from 50 unknowns,
over the reduced model's pattern, which follows its changes of states). "set-up" is the
thread's CPU time of \`make_link_chain\` (declaring the model, structure analysis, reduction,
state selection, consistent start), "run" that of one \`simulate\` call, both the least of the
rounds on fresh models; steps, residual evaluations and Jacobians are IDA's. "growth" is the
cost per step divided by N, over the same at the size before: 1 where a step costs in
proportion to N. The accuracy columns are read at the last row: the energy (0 at the start,
conserved) over the potential energy the chain can exchange, m g L N (N + 1) / 2, and the
worst rod's |d^2 - L^2| / L^2.

$(cat "${tmp}/link_chain.md")

The reduced system has 7N unknowns (per link x, y, vx, vy, the accelerations vx' and vy',
and F: der(x) = vx names the positions' derivatives). Steps and Jacobians grow slowly with N:
the motion over 0.2 s sets them, not the size. A step costs in proportion to N: the jets of
the residual, KLU over the reduced pattern, and the judgement of the state selection, which
for a stage of more than 40 rows looks at the diagonal blocks of the block triangular form of
its picks (for the chain, one block per rod) instead of solving the whole block for every
candidate, which grew with the square of N. The set-up grows in proportion to N too: the
fresh selection starts from a maximum transversal and repairs and improves it block by block
where a column-pivoted orthogonalisation of the whole block cost the cube of N, and the
search for rows der(x) = v tries them all in one evaluation of the model instead of one each.
Up to 40 links the selection is judged as a whole, as for every small model; that costs more
per link at 30 links than the blocks do at 100. The energy and the rods hold to the
tolerance at every size.

The same chain evaluated with doubles only (\`DifferenceQuotientModel\`, whose equations'
derivatives are difference quotients along the slots' Taylor curves): no exact Jacobians, so
the system Jacobian, the consistent start's Jacobian and IDA's Newton matrix are grouped
difference quotients (columns that share no row in one evaluation), and the structure
analysis probes the columns of one colour of the chain's declared pattern at a time. The
state selection is judged by blocks here too, entries that vanish told from the quotients'
noise by a threshold above it (docs/design.md, "Large stages"):

$(cat "${tmp}/link_chain_doubles.md")

A step costs more than with jets (every Newton matrix is a set of difference quotients of
equations whose derivatives are themselves quotients over nine points), in proportion to N
from 100 links on; the set-up grows no faster than N.
EOF
} > "${output}"

echo "bench.sh: wrote ${output}" >&2
exit ${status}
