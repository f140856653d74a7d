"""Ctrl-C (SIGINT) during a run: a run of a model in C++ ends with status "interrupted" and the
rows so far; in a model written in Python the callback sees KeyboardInterrupt, as Python code
does anywhere, and it reaches the caller with the partial result."""

import os
import signal
import subprocess
import sys
import textwrap
import time

CHILD = textwrap.dedent("""
    import signal, sys, time
    sys.path.insert(0, {tests!r})
    import hdae
    from models_for_tests import Decay
    {setup}
    model = {model}
    print("running", flush=True)
    try:
        r = hdae.simulate(model, stop=1e5, max_step=1e-4, output_interval=1e-3)
        print("status", r.status.outcome, r.status.t > 0, len(r) > 0, flush=True)
    except KeyboardInterrupt as e:
        print("KeyboardInterrupt", len(e.partial_result) > 0, flush=True)
    # Python's own handler is back after the run: a second SIGINT is a KeyboardInterrupt.
    print("handler restored", signal.getsignal(signal.SIGINT) is signal.default_int_handler,
          flush=True)
""")

SLEEPER = textwrap.dedent("""
    class Sleeper(Decay):
        def evaluate(self, e):
            if e.t > 0.01:
                time.sleep(20)  # Ctrl-C must not wait for it
            super().evaluate(e)
""")

LOOPER = textwrap.dedent("""
    class Looper(Decay):
        def evaluate(self, e):
            while e.t > 0.01:
                pass  # never returns but for Ctrl-C
            super().evaluate(e)
""")


def run_child(model, setup="", wait=1.0):
    code = CHILD.format(tests=os.path.dirname(__file__), model=model, setup=setup)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "running"
        time.sleep(wait)  # well inside the run: 1e9 steps would take hours
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        ended_after = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    assert "handler restored True" in out, out + err
    return out + err, ended_after


def test_sigint_raises_keyboard_interrupt_in_a_python_model():
    out, _ = run_child("Decay(T=1e6)")
    assert "KeyboardInterrupt True" in out, out


def test_sigint_wakes_a_python_model_that_sleeps_or_loops():
    for setup, model in ((SLEEPER, "Sleeper(T=1e6)"), (LOOPER, "Looper(T=1e6)")):
        out, ended_after = run_child(model, setup)
        assert "KeyboardInterrupt True" in out, out
        assert ended_after < 5.0, (model, ended_after)


def test_sigint_interrupts_a_run_of_a_bundled_model():
    # The pendulum runs in C++ with the GIL released; only the cancel flag can stop it.
    out, _ = run_child("hdae.models.Pendulum()")
    assert "status interrupted True True" in out, out


def test_an_ignored_sigint_stays_ignored():
    # A process in the background ignores SIGINT; a run does not make it interruptible.
    code = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        import hdae
        from models_for_tests import Decay
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        class Poke(Decay):
            def evaluate(self, e):
                if 0.5 < e.t < 0.51:
                    os.kill(os.getpid(), signal.SIGINT)
                super().evaluate(e)
        r = hdae.simulate(Poke(T=1.0), stop=1.0)
        print("status", r.status.outcome, signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "status reached stop time True" in done.stdout, done.stdout + done.stderr
