"""The Python section of docs/benchmarks.md: what the Python package costs.

1. A bundled model run from Python: the wall time of hdae.simulate(...) seen from Python
   against the engine's own run time inside it (result.statistics["wall_time_s"]), for the
   ideal clutch and the mass-spring chain, in interleaved rounds; with --programs, also the
   example programs hdae-<name> (a process each, writing its CSV) on the same runs.
2. A model written in Python (the Van der Pol oscillator, mu = 10) against SciPy's solve_ivp
   BDF at the same tolerances: wall times and the error at the end against a tight reference.
3. Sweep throughput: hdae.sweep over the clutch on a LocalCluster of 1 and 2 worker processes.
4. What a sweep point costs beyond its run, at three sizes: hdae.sweep of runs far shorter than
   the scheduling (the pendulum over 10 ms) on 2 worker processes, the wall time and the
   calling process's memory (peak resident size, the points and the table included) per point.

Prints Markdown on standard output. The package is imported from the directory given with
--pythonpath (a build's python/ folder).

Usage: /usr/bin/python3 bench/python_bench.py --pythonpath DIR [--programs DIR] [--smoke]
"""

import argparse
import statistics
import sys
import time

from scipy_peer import fmt_time  # bench/ is on sys.path: it holds this script

# Van der Pol: x' = y, y' = mu (1 - x^2) y - x, from (2, 0) over [0, T_VDP].
MU, X0, T_VDP = 10.0, 2.0, 20.0
RTOL = 1e-6
ATOL = 1e-8  # hdae's default: abs_tol_factor (0.01) * rel_tol * nominal (1)
OVERHEAD_TARGET = 1.05


def overhead(hdae, rounds, chain_n):
    """(name, median wall, median engine time, median ratio) per model. Each model's rounds
    run as one block after a warm-up: alternating with the chain would put the return of the
    chain's freed 24 MB table to the system and its page faults into the short clutch run,
    which is the allocator's cost, not the package's."""
    cases = [("ideal clutch, 500 s, rtol 1e-8", hdae.models.IdealClutch(),
              {"stop": 500.0, "rtol": 1e-8}),
             (f"mass-spring chain, N = {chain_n}, 10 s, rtol 1e-6",
              hdae.models.MassSpringChain(N=chain_n), {"stop": 10.0, "rtol": 1e-6})]
    rows = []
    for name, model, options in cases:
        # Warm-up: first-call costs (imports, page faults) are not the steady state.
        hdae.simulate(model, **options)
        walls, insides, ratios = [], [], []
        for _ in range(rounds):
            result = None  # freed before the clock starts
            start = time.perf_counter()  # the model is built before: only the run is timed
            result = hdae.simulate(model, **options)
            wall = time.perf_counter() - start
            if not result.status.ok:
                raise RuntimeError(f"{name}: the run ended with {result.status}")
            inside = result.statistics["wall_time_s"]
            walls.append(wall)
            insides.append(inside)
            ratios.append(wall / inside)
        rows.append((name, *(statistics.median(v) for v in (walls, insides, ratios))))
    return rows


def programs(hdae, rounds, chain_n, folder):
    """(name, median of the program's wall time, of hdae.simulate's, median ratio): the example
    program hdae-<name> as a process (start, run, CSV written to a temporary folder) against
    hdae.simulate of the same model and options, alternating within each round."""
    import pathlib
    import subprocess
    import tempfile

    cases = [("ideal clutch", "hdae-ideal-clutch", [], hdae.models.IdealClutch(),
              {"stop": 500.0, "rtol": 1e-8}),
             (f"mass-spring chain, N = {chain_n}", "hdae-mass-spring-chain",
              ["--set", f"N={chain_n}"], hdae.models.MassSpringChain(N=chain_n),
              {"stop": 10.0, "rtol": 1e-6})]
    rows = []
    with tempfile.TemporaryDirectory() as out:
        for name, program, extra, model, options in cases:
            command = [str(pathlib.Path(folder) / program), "--stop", repr(options["stop"]),
                       "--rtol", repr(options["rtol"]), *extra, str(pathlib.Path(out) / "r.csv")]
            runs = (lambda: subprocess.run(command, check=True, capture_output=True),
                    lambda: hdae.simulate(model, **options))
            times = ([], [])
            for r in range(rounds):
                for i in ((0, 1) if r % 2 == 0 else (1, 0)):
                    start = time.perf_counter()
                    runs[i]()
                    times[i].append(time.perf_counter() - start)
            ratios = [p / s for p, s in zip(*times)]
            rows.append((name, statistics.median(times[0]), statistics.median(times[1]),
                         statistics.median(ratios)))
    return rows


def van_der_pol_model(hdae):
    class VanDerPol(hdae.Model):
        """x' = y, y' = mu (1 - x^2) y - x as two residuals."""

        def __init__(self):
            super().__init__("van_der_pol")
            self.x = self.declare_variable("x", start=X0)
            self.y = self.declare_variable("y", start=0.0)
            self.dx = self.declare_equation("der(x) = y")
            self.dy = self.declare_equation("der(y) = mu (1 - x^2) y - x")

        def evaluate(self, e):
            x, y = e.x(self.x), e.x(self.y)
            e.set(self.dx, e.der(self.x) - y)
            e.set(self.dy, e.der(self.y) - (MU * (1.0 - x * x) * y - x))

    return VanDerPol


def vdp_rhs(_t, u):
    return [u[1], MU * (1.0 - u[0] * u[0]) * u[1] - u[0]]


def vdp_jac(_t, u):
    return [[0.0, 1.0], [-2.0 * MU * u[0] * u[1] - 1.0, MU * (1.0 - u[0] * u[0])]]


def python_model(hdae, rounds):
    """Rows (program, median time, end error, residual or rhs calls) and the reference."""
    from scipy.integrate import solve_ivp

    ref = solve_ivp(vdp_rhs, (0.0, T_VDP), [X0, 0.0], method="Radau", rtol=1e-12, atol=1e-14,
                    jac=vdp_jac)
    ref_end = ref.y[:, -1]
    model = van_der_pol_model(hdae)
    tight = hdae.simulate(model(), stop=T_VDP, rtol=1e-12)
    check = max(abs(tight["x"][-1] - ref_end[0]), abs(tight["y"][-1] - ref_end[1]))

    def run_hdae():
        r = hdae.simulate(model(), stop=T_VDP, rtol=RTOL)
        return (r["x"][-1], r["y"][-1]), r.statistics["residual_evaluations"]

    def run_scipy(jac):
        s = solve_ivp(vdp_rhs, (0.0, T_VDP), [X0, 0.0], method="BDF", rtol=RTOL, atol=ATOL,
                      jac=vdp_jac if jac else None)
        return tuple(s.y[:, -1]), s.nfev

    contenders = [("hdae, model written in Python (IDA, BDF)", run_hdae),
                  ("SciPy solve_ivp BDF, finite-difference Jacobian", lambda: run_scipy(False)),
                  ("SciPy solve_ivp BDF, analytic Jacobian", lambda: run_scipy(True))]
    times = {name: [] for name, _ in contenders}
    outcome = {}
    for r in range(rounds):
        for name, run in (contenders if r % 2 == 0 else contenders[::-1]):
            start = time.perf_counter()
            outcome[name] = run()
            times[name].append(time.perf_counter() - start)
    rows = []
    for name, _ in contenders:
        (x, y), calls = outcome[name]
        rows.append((name, statistics.median(times[name]),
                     max(abs(x - ref_end[0]), abs(y - ref_end[1])), calls))
    return rows, ref_end, check


def sweep_throughput(hdae, points, worker_counts):
    """(workers, seconds, runs per second) of hdae.sweep over J2 of the clutch."""
    from dask.distributed import Client, LocalCluster

    values = [0.1 + 0.9 * i / max(points - 1, 1) for i in range(points)]
    rows = []
    for workers in worker_counts:
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            # Warm-up: every worker imports hdae once before the clock starts.
            hdae.sweep(hdae.models.IdealClutch, {"J2": values[:workers]}, client=client,
                       stop=500.0, rtol=1e-8, progress=False)
            start = time.perf_counter()
            table = hdae.sweep(hdae.models.IdealClutch, {"J2": values}, client=client,
                               stop=500.0, rtol=1e-8, outputs=("w1",), progress=False)
            seconds = time.perf_counter() - start
        failed = table[table["status"] != "reached stop time"]
        if len(table) != points or len(failed):
            raise RuntimeError(f"sweep with {workers} workers: {len(failed)} of {len(table)} "
                               f"points did not reach the stop time:\n{failed}")
        rows.append((workers, seconds, points / seconds))
    return rows


def resident_mib():
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def sweep_point_cost(hdae, sizes):
    """(points, seconds, KiB per point in the calling process) of hdae.sweep over the pendulum's
    length, runs of 10 ms of model time, on 2 worker processes."""
    import threading

    from dask.distributed import Client, LocalCluster

    rows = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        hdae.sweep(hdae.models.Pendulum, {"L": [0.5, 0.6]}, client=client, stop=0.01,
                   progress=False)
        for size in sizes:
            before = resident_mib()
            peak = [before]
            done = threading.Event()

            def watch():
                while not done.wait(0.02):
                    peak[0] = max(peak[0], resident_mib())

            watcher = threading.Thread(target=watch)
            watcher.start()
            start = time.perf_counter()
            points = [{"L": 0.5 + 1e-6 * i} for i in range(size)]
            table = hdae.sweep(hdae.models.Pendulum, points, client=client, stop=0.01,
                               outputs=("phi",), progress=False)
            seconds = time.perf_counter() - start
            done.set()
            watcher.join()
            peak[0] = max(peak[0], resident_mib())
            if len(table) != size or (table["status"] != "reached stop time").any():
                raise RuntimeError(f"sweep of {size} points: not every point reached the stop "
                                   "time")
            rows.append((size, seconds, 1024.0 * (peak[0] - before) / size))
            del table, points
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pythonpath", required=True, help="folder holding the hdae package")
    parser.add_argument("--programs", help="folder of the example programs hdae-<name>: "
                        "their run times beside hdae.simulate's")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one round")
    args = parser.parse_args()
    sys.path.insert(0, args.pythonpath)
    import hdae

    rounds = 1 if args.smoke else 11
    chain_n = 20 if args.smoke else 1000
    points = 4 if args.smoke else 40

    print("| model | hdae.simulate from Python | engine's run time inside | "
          "Python / engine (median of rounds) | target |")
    print("| --- | --- | --- | --- | --- |")
    for name, wall, inside, ratio in overhead(hdae, rounds, chain_n):
        met = "met" if ratio <= OVERHEAD_TARGET else "not met"
        print(f"| {name} | {fmt_time(wall)} | {fmt_time(inside)} | {ratio:.3f} | "
              f"<= {OVERHEAD_TARGET} ({met}) |")
    if args.programs:
        print()
        print("| model | example program (process, CSV written) | hdae.simulate | "
              "program / Python (median of rounds) |")
        print("| --- | --- | --- | --- |")
        for name, program, python, ratio in programs(hdae, rounds, chain_n, args.programs):
            print(f"| {name} | {fmt_time(program)} | {fmt_time(python)} | {ratio:.3g} |")

    print()
    try:
        rows, ref_end, check = python_model(hdae, rounds)
    except ImportError as e:
        print(f"SciPy is not available ({e}); install python3-scipy for this comparison.")
    else:
        print(f"Reference x({T_VDP:g}) = {ref_end[0]:.12g}, y({T_VDP:g}) = {ref_end[1]:.12g} "
              f"(solve_ivp Radau, rtol 1e-12, atol 1e-14; hdae at rtol 1e-12 differs from it "
              f"by {check:.1e}).")
        print()
        print("| program | time per run | / hdae | error at the end (max over x, y) | "
              "residual calls (hdae) / nfev (SciPy) |")
        print("| --- | --- | --- | --- | --- |")
        base = rows[0][1]
        for name, seconds, error, calls in rows:
            print(f"| {name} | {fmt_time(seconds)} | {seconds / base:.3g} | {error:.1e} | "
                  f"{calls} |")

    print()
    try:
        sweep_rows = sweep_throughput(hdae, points, (1, 2))
    except ImportError as e:
        print(f"dask.distributed is not available ({e}); install python3-distributed for "
              "the sweep.")
        return 0
    print(f"| sweep of {points} clutch runs | wall time | runs per second | / 1 worker |")
    print("| --- | --- | --- | --- |")
    for workers, seconds, rate in sweep_rows:
        print(f"| LocalCluster, {workers} worker process{'es' if workers > 1 else ''} | "
              f"{fmt_time(seconds)} | {rate:.3g} | {rate / sweep_rows[0][2]:.2f} |")

    print()
    sizes = (20, 40, 80) if args.smoke else (1000, 4000, 16000)
    print("| sweep of pendulum runs of 10 ms, 2 worker processes | wall time | per point | "
          "calling process's memory per point |")
    print("| --- | --- | --- | --- |")
    for size, seconds, kib in sweep_point_cost(hdae, sizes):
        print(f"| {size} points | {fmt_time(seconds)} | {fmt_time(seconds / size)} | "
              f"{kib:.2f} KiB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
