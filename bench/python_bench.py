"""The Python section of docs/benchmarks.md: what the Python package costs.

1. A bundled model run from Python: the wall time of hdae.simulate(...) seen from Python
   against the engine's own run time inside it (result.statistics["wall_time_s"]), for the
   ideal clutch and the mass-spring chain, in interleaved rounds; with --programs, also the
   example programs hdae-<name> (a process each, writing its CSV) on the same runs.
2. Sweep throughput: hdae.sweep over the clutch on a LocalCluster of 1 and 2 worker processes.
3. What a sweep point costs beyond its run, at three sizes: hdae.sweep of runs far shorter than
   the scheduling (the pendulum over 10 ms) on 2 worker processes, the wall time and the
   calling process's memory (peak resident size, the points and the table included) per point.
Times are the least of the rounds: the machine's load only ever adds time. Models written in
Python against SciPy, at equal accuracy, are bench/python_forms_bench.py's.

Prints Markdown on standard output. The package is imported from the directory given with
--pythonpath (a build's python/ folder).

Usage: /usr/bin/python3 bench/python_bench.py --pythonpath DIR [--programs DIR] [--smoke]
"""

import argparse
import sys
import time

from bench_format import fmt_time  # bench/ is on sys.path: it holds this script

OVERHEAD_TARGET = 1.05


def overhead(hdae, rounds, chain_n):
    """(name, least wall, least engine time, least ratio) per model. Each model's rounds
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
        rows.append((name, *(min(v) for v in (walls, insides, ratios))))
    return rows


def programs(hdae, rounds, chain_n, folder):
    """(name, least of the program's wall time, of hdae.simulate's, their ratio): the example
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
            rows.append((name, min(times[0]), min(times[1]), min(times[0]) / min(times[1])))
    return rows


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
          "Python / engine (least of rounds) | target |")
    print("| --- | --- | --- | --- | --- |")
    for name, wall, inside, ratio in overhead(hdae, rounds, chain_n):
        met = "met" if ratio <= OVERHEAD_TARGET else "not met"
        print(f"| {name} | {fmt_time(wall)} | {fmt_time(inside)} | {ratio:.3f} | "
              f"<= {OVERHEAD_TARGET} ({met}) |")
    if args.programs:
        print()
        print("| model | example program (process, CSV written) | hdae.simulate | "
              "program / Python (least times) |")
        print("| --- | --- | --- | --- |")
        for name, program, python, ratio in programs(hdae, rounds, chain_n, args.programs):
            print(f"| {name} | {fmt_time(program)} | {fmt_time(python)} | {ratio:.3g} |")

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
