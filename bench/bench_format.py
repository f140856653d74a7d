"""Formatting shared by the Python benchmarks (bench/python_bench.py, bench/python_forms_bench.py)."""


def fmt_time(s):
    """Seconds as the C++ benchmarks print them: us below a millisecond, ms below a second."""
    if s < 1e-3:
        return f"{s * 1e6:.3g} us"
    if s < 1.0:
        return f"{s * 1e3:.3g} ms"
    return f"{s:.3g} s"
