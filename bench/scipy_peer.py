"""The SciPy side of docs/benchmarks.md, "A peer": the pendulum and the bouncing ball of
bench/peer_main.cpp with scipy.integrate.solve_ivp at the same tolerances (rtol 1e-6,
atol 1e-8), events enabled for the ball (a terminal event at h = 0, falling, and a restart
with v := -e v, as a SciPy user writes it). Reads hdae's figures (the "key value" file that
hdae-bench-peer wrote) and prints the Markdown table with both.

Usage: /usr/bin/python3 bench/scipy_peer.py HDAE_FIGURES [--runs R]
"""

import math
import statistics
import sys
import time

PHI10 = 0.120289  # rad, published
W10 = 0.273965  # rad/s, published
L, M, D, G = 0.5, 1.0, 0.1, 9.81
PHI0 = math.radians(60.0)
H0, E, REST = 1.0, 0.7, 0.01
RTOL, ATOL = 1e-6, 1e-8
METHODS = ("RK45", "DOP853", "LSODA", "BDF", "Radau")


def read_figures(path):
    figures = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, value = line.split()
            figures[key] = float(value)
    return figures


def exact_impacts():
    t1 = math.sqrt(2.0 * H0 / G)
    v, t = G * t1, t1
    times = [t]
    while E * v >= REST:
        v *= E
        t += 2.0 * v / G
        times.append(t)
    return times


def pendulum(solve_ivp, np, method):
    def rhs(_t, y):
        return [y[1], (-M * G * L * math.sin(y[0]) - D * y[1]) / (M * L * L)]

    sol = solve_ivp(rhs, (0.0, 10.0), [PHI0, 0.0], method=method, rtol=RTOL, atol=ATOL,
                    t_eval=np.linspace(0.0, 10.0, 501))
    return sol.y[0][-1], sol.y[1][-1], sol.t_events


def ball(solve_ivp, method):
    def rhs(_t, y):
        return [y[1], -G]

    def ground(_t, y):
        return y[0]

    ground.terminal = True
    ground.direction = -1
    t, y, impacts = 0.0, [H0, 0.0], []
    while t < 3.0:
        sol = solve_ivp(rhs, (t, 3.0), y, method=method, rtol=RTOL, atol=ATOL, events=ground)
        if sol.status != 1:  # reached the end without an impact
            break
        t = sol.t_events[0][0]
        v = sol.y_events[0][0][1]
        impacts.append(t)
        if E * abs(v) < REST:
            break  # at rest from here on
        y = [0.0, -E * v]
    return impacts


def timed(f, runs):
    samples = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = f()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), result


def fmt_time(s):
    if s < 1e-3:
        return f"{s * 1e6:.3g} us"
    if s < 1.0:
        return f"{s * 1e3:.3g} ms"
    return f"{s:.3g} s"


def main():
    hdae = read_figures(sys.argv[1])
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 11
    exact = exact_impacts()
    print("| problem | program | time per run | / hdae | error at the end | impacts |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(f"| pendulum | hdae (IDA, BDF) | {fmt_time(hdae['pendulum_s'])} | 1 | "
          f"phi {hdae['pendulum_phi_error']:.1e}, w {hdae['pendulum_w_error']:.1e} | - |")
    print(f"| pendulum | hdae (IDA, BDF), rtol 1e-8 | {fmt_time(hdae['pendulum_tight_s'])} | "
          f"{hdae['pendulum_tight_s'] / hdae['pendulum_s']:.3g} | "
          f"phi {hdae['pendulum_tight_phi_error']:.1e}, w {hdae['pendulum_tight_w_error']:.1e} "
          "| - |")
    try:
        import numpy as np
        from scipy import __version__ as scipy_version
        from scipy.integrate import solve_ivp
    except ImportError as e:
        print(f"\nSciPy is not available ({e}); install python3-scipy for this comparison.")
        return 0
    for method in METHODS:
        s, (phi, w, _) = timed(lambda: pendulum(solve_ivp, np, method), runs)
        print(f"| pendulum | SciPy {scipy_version} solve_ivp {method} | {fmt_time(s)} | "
              f"{s / hdae['pendulum_s']:.3g} | phi {abs(phi - PHI10):.1e}, w {abs(w - W10):.1e} "
              "| - |")
    worst = hdae["ball_impact_time_error"]
    print(f"| bouncing ball | hdae (IDA, BDF) | {fmt_time(hdae['ball_s'])} | 1 | "
          f"impact times {worst:.1e} | {int(hdae['ball_impacts'])} of {len(exact)} |")
    for method in METHODS:
        s, impacts = timed(lambda: ball(solve_ivp, method), runs)
        err = max(abs(a - b) for a, b in zip(impacts, exact))
        print(f"| bouncing ball | SciPy {scipy_version} solve_ivp {method} | {fmt_time(s)} | "
              f"{s / hdae['ball_s']:.3g} | impact times {err:.1e} | {len(impacts)} of "
              f"{len(exact)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
