"""docs/benchmarks.md, "Work and precision": hdae's integrators against SciPy's solve_ivp at
equal accuracy. Each round runs hdae-bench-work-precision (every hdae method over a sweep of
tolerances) and then every SciPy method over the same sweep, on the same four problems with
the same right-hand sides (written with numpy here); a run's CPU time is the minimum over the
rounds. Errors are taken against references computed here: the ball's impact times in closed
form, the others SciPy's DOP853 (Radau for the stiff Robertson problem) at rtol 1e-13. The
table gives, for target errors, each side's least CPU time to reach them, interpolated in
log(error) against log(time) within each method's sweep.

Usage: /usr/bin/python3 bench/work_precision.py HDAE_PROGRAM [--rounds R] [--smoke]
"""

import math
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.integrate import solve_ivp

RTOLS = [1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10]
TARGETS = [1e-4, 1e-6, 1e-8]
SAMPLE_S = 0.02  # each timed sample repeats a run until this much CPU time has passed
L, M, D, G, PHI0 = 0.5, 1.0, 0.1, 9.81, math.radians(60.0)
H0, E, REST = 1.0, 0.7, 0.01
K1, K2, K3 = 0.04, 3e7, 1e4


def robertson(masses):
    def rhs(_t, y):
        r1, r2, r3 = K1 * y[0], K3 * y[1] * y[2], K2 * y[1] * y[1]
        return np.array([-r1 + r2, r1 - r2 - r3, r3])
    atol = np.array([1.0, 1e-4, 1.0])  # times 0.01 rtol: hdae's default with y2's nominal
    return {"rhs": rhs, "y0": np.array([1.0, 0.0, 0.0]), "stop": 40.0, "atol": atol,
            "grid": None, "methods": ["LSODA", "BDF", "Radau"], "ref_method": "Radau"}


def pendulum(masses):
    def rhs(_t, y):
        return np.array([y[1], (-M * G * L * math.sin(y[0]) - D * y[1]) / (M * L * L)])
    return {"rhs": rhs, "y0": np.array([PHI0, 0.0]), "stop": 10.0, "atol": np.ones(2),
            "grid": np.linspace(0.0, 10.0, 501), "methods": ["RK45", "DOP853", "LSODA"],
            "ref_method": "DOP853"}


def chain(masses):
    n, k, m, d = masses, 100.0, 1.0, 0.5

    def rhs(_t, y):
        s, v = y[:n], y[n:]
        stretch = np.diff(s, prepend=0.0)  # s_i - s_{i-1}, s_0 = 0
        pull = np.append(stretch[1:], 0.0)  # s_{i+1} - s_i, none after the last
        return np.concatenate([v, (k * pull - k * stretch - d * v) / m])
    y0 = np.concatenate([np.arange(1, n + 1) / n, np.zeros(n)])
    return {"rhs": rhs, "y0": y0, "stop": 10.0, "atol": np.ones(2 * n),
            "grid": np.linspace(0.0, 10.0, 501), "methods": ["RK45", "DOP853", "LSODA"],
            "ref_method": "DOP853"}


def solve(problem, method, rtol):
    """The answer of one run: the state at the stop time."""
    sol = solve_ivp(problem["rhs"], (0.0, problem["stop"]), problem["y0"], method=method,
                    rtol=rtol, atol=0.01 * rtol * problem["atol"], t_eval=problem["grid"])
    return sol.y[:, -1]


def ball_impacts(method, rtol):
    """The ball as a SciPy user writes it: a terminal falling event at h = 0 and a restart."""
    def rhs(_t, y):
        return np.array([y[1], -G])

    def ground(_t, y):
        return y[0]
    ground.terminal = True
    ground.direction = -1
    t, y, impacts = 0.0, np.array([H0, 0.0]), []
    while t < 3.0:
        sol = solve_ivp(rhs, (t, 3.0), y, method=method, rtol=rtol, atol=0.01 * rtol,
                        events=ground)
        if sol.status != 1:
            break
        t, v = sol.t_events[0][0], sol.y_events[0][0][1]
        impacts.append(t)
        if E * abs(v) < REST:
            break
        y = np.array([0.0, -E * v])
    return impacts


def exact_impacts():
    t1 = math.sqrt(2.0 * H0 / G)
    v, t, times = G * t1, t1, [t1]
    while E * v >= REST:
        v *= E
        t += 2.0 * v / G
        times.append(t)
    return times


def error(name, answer, reference):
    a, r = np.asarray(answer), np.asarray(reference)
    if name == "ball":
        return math.inf if len(a) != len(r) else float(np.max(np.abs(a - r)))
    if name == "robertson":  # relative per species: y2 is 1e-5 of the others
        return float(np.max(np.abs(a - r) / np.abs(r)))
    return float(np.max(np.abs(a - r)))


def timed(f):
    """CPU seconds per call of f (repeated until SAMPLE_S) and its last result."""
    calls, start = 0, time.process_time()
    while True:
        result = f()
        calls += 1
        elapsed = time.process_time() - start
        if elapsed >= SAMPLE_S:
            return elapsed / calls, result


PROBLEMS = {"robertson": robertson, "pendulum": pendulum, "chain": chain}


def references(masses):
    refs = {"ball": exact_impacts()}
    for name, make in PROBLEMS.items():
        p = make(masses)
        tight = 1e-12 if p["ref_method"] == "Radau" else 1e-13
        sol = solve_ivp(p["rhs"], (0.0, p["stop"]), p["y0"], method=p["ref_method"], rtol=tight,
                        atol=1e-4 * tight * p["atol"])
        refs[name] = sol.y[:, -1] if name != "chain" else sol.y[:masses, -1]
    return refs


def hdae_round(program, smoke, masses, refs, runs):
    with tempfile.NamedTemporaryFile(mode="r", suffix=".txt") as out:
        args = [program, "--out", out.name, "--masses", str(masses)] + (["--smoke"] if smoke else [])
        subprocess.run(args, check=True)
        for line in out.read().splitlines():
            f = line.split()
            name, method, rtol, cpu = f[0], "hdae " + f[1], float(f[2]), float(f[3])
            values = [float(v) for v in f[7:7 + int(f[6])]]
            note(runs, name, method, rtol, cpu, error(name, values, refs[name]))


def scipy_round(rtols, masses, refs, runs):
    for method in ["RK45", "DOP853", "LSODA"]:
        for rtol in rtols:
            cpu, impacts = timed(lambda: ball_impacts(method, rtol))
            note(runs, "ball", "SciPy " + method, rtol, cpu, error("ball", impacts, refs["ball"]))
    for name, make in PROBLEMS.items():
        p = make(masses)
        for method in p["methods"]:
            for rtol in rtols:
                cpu, answer = timed(lambda: solve(p, method, rtol))
                if name == "chain":
                    answer = answer[:masses]
                note(runs, name, "SciPy " + method, rtol, cpu, error(name, answer, refs[name]))


def note(runs, name, method, rtol, cpu, err):
    key = (name, method, rtol)
    best = runs.get(key)
    runs[key] = (min(cpu, best[0]) if best else cpu, err)


def time_to_reach(sweep, target):
    """(CPU s, how) for a sweep [(rtol, cpu, error)] from loose to tight."""
    if not sweep:
        return math.inf, "-"
    if sweep[0][2] <= target:
        return sweep[0][1], "<="
    for (_, c0, e0), (_, c1, e1) in zip(sweep, sweep[1:]):
        if e0 >= target >= e1 and e0 > e1 > 0:
            w = math.log(e0 / target) / math.log(e0 / e1)
            return math.exp((1 - w) * math.log(c0) + w * math.log(c1)), "interpolated"
    return math.inf, "not reached"


def sweeps(runs, name):
    out = {}
    for (n, method, rtol), (cpu, err) in runs.items():
        if n == name:
            out.setdefault(method, []).append((rtol, cpu, err))
    for sweep in out.values():
        sweep.sort(reverse=True)
    return out


def fmt_s(s):
    return "-" if not math.isfinite(s) else f"{s * 1e3:.3g} ms"


def print_problem(name, runs, rtols):
    print(f"\n### {name}\n")
    print("| method | " + " | ".join(f"rtol {r:g}" for r in rtols) + " |")
    print("| --- |" + " --- |" * len(rtols))
    for method, sweep in sorted(sweeps(runs, name).items()):
        cells = {r: f"{e:.1e} / {fmt_s(c)}" for r, c, e in sweep}
        print(f"| {method} | " + " | ".join(cells.get(r, "-") for r in rtols) + " |")


def best(sweep_map, prefix, target):
    found = [(time_to_reach(s, target), m) for m, s in sweep_map.items() if m.startswith(prefix)]
    found = [((c, how), m) for (c, how), m in found if math.isfinite(c)]
    return min(found) if found else ((math.inf, "not reached"), "-")


def print_summary(runs):
    print("\n| problem | target error | SciPy's best | its CPU | hdae auto | hdae's best | its CPU "
          "| SciPy best / hdae auto | SciPy best / hdae best |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in ["robertson", "pendulum", "ball", "chain"]:
        s = sweeps(runs, name)
        for target in TARGETS:
            (sc, _), sm = best(s, "SciPy", target)
            (hc, _), hm = best(s, "hdae", target)
            auto, _ = time_to_reach(s.get("hdae auto", []), target)
            ratio_auto = sc / auto if math.isfinite(sc) and math.isfinite(auto) else math.nan
            ratio_best = sc / hc if math.isfinite(sc) and math.isfinite(hc) else math.nan
            print(f"| {name} | {target:g} | {sm} | {fmt_s(sc)} | {fmt_s(auto)} | {hm} | "
                  f"{fmt_s(hc)} | {ratio_auto:.3g} | {ratio_best:.3g} |")


def main():
    program = sys.argv[1]
    smoke = "--smoke" in sys.argv
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
    rtols = [1e-6] if smoke else RTOLS
    masses = 10 if smoke else 100
    refs = references(masses)
    runs = {}
    for _ in range(1 if smoke else rounds):
        hdae_round(program, smoke, masses, refs, runs)
        scipy_round(rtols, masses, refs, runs)
    print_summary(runs)
    for name in ["robertson", "pendulum", "ball", "chain"]:
        print_problem(name, runs, rtols)
    return 0


if __name__ == "__main__":
    sys.exit(main())
