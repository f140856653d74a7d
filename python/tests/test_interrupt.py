"""Ctrl-C (SIGINT) during a run ends it with status "interrupted" and the rows so far."""

import os
import signal
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import signal, sys
    sys.path.insert(0, {tests!r})
    import hdae
    from models_for_tests import Decay
    model = {model}
    print("running", flush=True)
    r = hdae.simulate(model, stop=1e5, max_step=1e-4, output_interval=1e-3)
    print("status", r.status.outcome, r.status.t > 0, len(r) > 0, flush=True)
    # Python's own handler is back after the run: a second SIGINT is a KeyboardInterrupt.
    print("handler restored", signal.getsignal(signal.SIGINT) is signal.default_int_handler,
          flush=True)
""")


def test_sigint_interrupts_a_run_of_a_python_model():
    run_child("Decay(T=1e6)")


def run_child(model):
    code = CHILD.format(tests=os.path.dirname(__file__), model=model)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "running"
        import time

        time.sleep(1.0)  # well inside the run: 1e9 steps would take hours
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    assert "status interrupted True True" in out, out + err
    assert "handler restored True" in out, out + err


def test_sigint_interrupts_a_run_of_a_bundled_model():
    # The pendulum runs in C++ with the GIL released; only the cancel flag can stop it.
    run_child("hdae.models.Pendulum()")
