"""Python models at compiled speed (docs/benchmarks.md, "Python"): the chain of 100 masses of
hdae.models.MassSpringChain and the Van der Pol oscillator (mu = 10, from (2, 0) to t = 20)
written as hdae.Model subclasses in three forms (evaluate element by element, a numpy
residual(), a numba cfunc) against scipy.integrate.solve_ivp with a numpy right-hand side of the
same equations, at equal accuracy. hdae runs every form with the methods "ida", "auto" (an
explicit ODE on the explicit Runge-Kutta pair, or CVODE's BDF while it is stiff) and "erk", the
model made once as SciPy's right-hand side is; each side's best method at each accuracy counts.
Each contender runs a sweep of tolerances; its error is the
largest absolute difference of the unknowns at the end from a tight reference (DOP853 at
rtol 1e-13 for the chain, Radau at rtol 1e-12 with its Jacobian for Van der Pol); its cost is the
CPU time of the run, the minimum over interleaved rounds. The CPU time at a target error is
interpolated in log(error) against log(CPU time) between the sweep's bracketing runs.

Usage: /usr/bin/python3 bench/python_forms_bench.py --pythonpath DIR [--smoke]
"""

import argparse
import math
import sys
import time

import numpy as np

from bench_format import fmt_time

MU, T_VDP, N_CHAIN, T_CHAIN = 10.0, 20.0, 100, 10.0
K, D = 100.0, 0.5
METHODS = ("LSODA", "DOP853", "Radau", "BDF")
# hdae's integrators swept for every form (SimulationOptions::method): IDA, auto (an explicit ODE
# on the explicit pair, or CVODE's BDF while it is stiff) and the explicit pair alone.
HDAE_METHODS = ("ida", "auto", "erk")


def vdp_rhs(_t, u):
    return np.array([u[1], MU * (1.0 - u[0] * u[0]) * u[1] - u[0]])


def chain_rhs(_t, u):
    s, v = u[:N_CHAIN], u[N_CHAIN:]
    f = K * np.diff(s, prepend=0.0)
    return np.concatenate((v, np.append(f[1:], 0.0) - f - D * v))


def models(hdae, numba):
    sig = hdae.compiled_residual_signature()

    class Vdp(hdae.Model):
        def __init__(self):
            super().__init__("van_der_pol")
            self.vx, self.vy = self.declare_variable("x", start=2.0), self.declare_variable("y")
            self.ex = self.declare_equation("der(x) = y")
            self.ey = self.declare_equation("der(y) = mu (1 - x^2) y - x")

        def evaluate(self, e):
            x, y = e.x(self.vx), e.x(self.vy)
            e.set(self.ex, e.der(self.vx) - y)
            e.set(self.ey, e.der(self.vy) - (MU * (1.0 - x * x) * y - x))

    class VdpNumpy(Vdp):
        evaluate = None

        def residual(self, t, x, der_x, r):
            r[0] = der_x[0] - x[1]
            r[1] = der_x[1] - (MU * (1.0 - x[0] * x[0]) * x[1] - x[0])

    class Chain(hdae.Model):
        def __init__(self):
            super().__init__("chain")
            n = N_CHAIN
            self.s = [self.declare_variable(f"s[{i}]", start=i / n) for i in range(1, n + 1)]
            self.v = [self.declare_variable(f"v[{i}]") for i in range(1, n + 1)]
            self.ks = [self.declare_equation(f"der(s[{i}]) = v[{i}]") for i in range(1, n + 1)]
            self.dy = [self.declare_equation(f"der(v[{i}])") for i in range(1, n + 1)]
            # The pattern, so that IDA's Jacobian takes a few coloured residual calls, not 2N.
            for i in range(n):
                self.declare_dependency(self.ks[i], self.s[i])
                self.declare_dependency(self.ks[i], self.v[i])
                self.declare_dependency(self.dy[i], self.v[i])
                for j in (i - 1, i, i + 1):
                    if 0 <= j < n:
                        self.declare_dependency(self.dy[i], self.s[j])

        def evaluate(self, e):
            n, s, v = N_CHAIN, self.s, self.v
            for i in range(n):
                f = K * (e.x(s[i]) - (e.x(s[i - 1]) if i else 0.0))
                f_next = K * (e.x(s[i + 1]) - e.x(s[i])) if i + 1 < n else 0.0
                e.set(self.ks[i], e.der(s[i]) - e.x(v[i]))
                e.set(self.dy[i], e.der(v[i]) - (f_next - f - D * e.x(v[i])))

    class ChainNumpy(Chain):
        evaluate = None

        def residual(self, t, x, der_x, r):
            r[:] = der_x - chain_rhs(t, x)

    forms = {"vdp": [("element-wise", Vdp), ("numpy", VdpNumpy)],
             "chain": [("element-wise", Chain), ("numpy", ChainNumpy)]}
    if numba is not None:
        @numba.cfunc(sig)
        def vdp_c(t, x, der_x, r, p, n):
            r[0] = der_x[0] - x[1]
            r[1] = der_x[1] - (MU * (1.0 - x[0] * x[0]) * x[1] - x[0])

        @numba.cfunc(sig)
        def chain_c(t, x, der_x, r, p, n):
            m = n // 2
            for i in range(m):
                f = K * (x[i] - (x[i - 1] if i > 0 else 0.0))
                f_next = K * (x[i + 1] - x[i]) if i + 1 < m else 0.0
                r[i] = der_x[i] - x[m + i]
                r[m + i] = der_x[m + i] - (f_next - f - D * x[m + i])

        def compiled(base, cfunc):
            class Compiled(base):
                evaluate = None

                def __init__(self):
                    super().__init__()
                    self.set_compiled_residual(cfunc)
            return Compiled

        forms["vdp"].append(("numba", compiled(Vdp, vdp_c)))
        forms["chain"].append(("numba", compiled(Chain, chain_c)))
    return forms


def cpu(run):
    start = time.process_time()
    value = run()
    return time.process_time() - start, value


def at_error(points, target):
    """CPU time at the target error, interpolated in log-log; None when no run reaches it."""
    points = sorted(points, key=lambda p: -p[0])  # loosest first
    if not points or points[-1][0] > target:
        return None
    if points[0][0] <= target:
        return points[0][1]
    for (e1, c1), (e2, c2) in zip(points, points[1:]):
        if e1 >= target >= e2:
            w = (math.log(target) - math.log(e1)) / (math.log(e2) - math.log(e1))
            return math.exp(math.log(c1) + w * (math.log(c2) - math.log(c1)))
    return None


def problem(hdae, solve_ivp, forms, name, y0, stop, rhs, ref, rtols, rounds):
    names = [n for n, _ in forms]
    def hdae_run(model, method, rtol):
        r = hdae.simulate(model, stop=stop, rtol=rtol, output_interval=stop, method=method)
        return np.array(r.values[-1, :len(y0)])  # the unknowns come first, in declared order
    # Each form's model is made once, as SciPy's right-hand side is: a run is the call.
    models = {n: c() for n, c in forms}
    contenders = [(f"hdae, {n}, {m}", (lambda mo, m: lambda rtol: hdae_run(mo, m, rtol))(
        models[n], m)) for n, _ in forms for m in HDAE_METHODS]
    contenders += [(f"SciPy {m}", (lambda m: lambda rtol: solve_ivp(
        rhs, (0.0, stop), y0, method=m, rtol=rtol, atol=rtol * 1e-2).y[:, -1])(m))
        for m in METHODS]
    samples = {(c, rt): [] for c, _ in contenders for rt in rtols}
    errors = {}
    for r in range(rounds):
        order = contenders if r % 2 == 0 else contenders[::-1]
        for rt in rtols:
            for c, run in order:
                seconds, y = cpu(lambda: run(rt))
                samples[(c, rt)].append(seconds)
                errors[(c, rt)] = float(np.max(np.abs(y - ref)))
    curves = {c: [(errors[(c, rt)], min(samples[(c, rt)])) for rt in rtols] for c, _ in contenders}
    return names, curves


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pythonpath", required=True)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, args.pythonpath)
    import hdae
    from scipy.integrate import solve_ivp
    try:
        import numba
    except ImportError:
        numba = None
        print("numba is not installed (python3-numba): no numba form below.\n")
    forms = models(hdae, numba)
    rounds = 1 if args.smoke else 5
    rtols = (1e-4, 1e-6) if args.smoke else (
        1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1e-6, 1e-7, 1e-8)
    targets = (1e-3,) if args.smoke else (1e-3, 1e-5)
    vdp_y0 = [2.0, 0.0]
    vdp_ref = solve_ivp(vdp_rhs, (0, T_VDP), vdp_y0, method="Radau", rtol=1e-12, atol=1e-14,
                        jac=lambda t, u: [[0.0, 1.0], [-2 * MU * u[0] * u[1] - 1,
                                                       MU * (1 - u[0] ** 2)]]).y[:, -1]
    chain_y0 = np.concatenate((np.arange(1, N_CHAIN + 1) / N_CHAIN, np.zeros(N_CHAIN)))
    chain_ref = solve_ivp(chain_rhs, (0, T_CHAIN), chain_y0, method="DOP853", rtol=1e-13,
                          atol=1e-15).y[:, -1]
    print("| problem | error at the end | form | hdae's best (method) | SciPy's best (method) | "
          "SciPy best / hdae | goal |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    goals = {"numpy": 2.0, "numba": 10.0}
    for label, key, y0, stop, rhs, ref in (
            ("Van der Pol, mu = 10, to t = 20", "vdp", vdp_y0, T_VDP, vdp_rhs, vdp_ref),
            (f"chain of {N_CHAIN} masses, to t = {T_CHAIN:g}", "chain", chain_y0, T_CHAIN,
             chain_rhs, chain_ref)):
        names, curves = problem(hdae, solve_ivp, forms[key], label, y0, stop, rhs, ref, rtols,
                                rounds)
        for target in targets:
            scipy = [(at_error(curves[f"SciPy {m}"], target), m) for m in METHODS]
            scipy = [(c, m) for c, m in scipy if c is not None]
            best = min(scipy) if scipy else (None, "none reached it")
            for n in names:
                mine = [(at_error(curves[f"hdae, {n}, {m}"], target), m) for m in HDAE_METHODS]
                mine = min([(c, m) for c, m in mine if c is not None], default=(None, None))
                mine, method = mine
                ratio = best[0] / mine if mine and best[0] else None
                goal = goals.get(n)
                verdict = "-" if goal is None else (
                    f">= {goal:g}: " + ("met" if ratio and ratio >= goal else "**not met**"))
                print(f"| {label} | {target:.0e} | {n} | "
                      f"{fmt_time(mine) + f' ({method})' if mine else 'not reached'} | "
                      f"{fmt_time(best[0]) if best[0] else '-'} ({best[1]}) | "
                      f"{f'{ratio:.3g}' if ratio else '-'} | {verdict} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
