"""Results as numpy views, options as keywords, the incremental Simulator."""

import gc
import inspect

import numpy as np
import pytest

import hdae
from models_for_tests import Ball, Decay


def test_columns_are_read_only_views_that_keep_the_result_alive():
    r = hdae.simulate(Decay(T=2.0), stop=1.0, output_interval=0.25)
    x = r["x"]
    assert np.shares_memory(x, r.values)  # no copy: a strided view of the row-major table
    assert x.strides == (8 * len(r.columns),)
    assert not x.flags.writeable
    with pytest.raises(ValueError):
        x[0] = 5.0
    expected = np.exp(-np.array(r.time) / 2.0)
    del r
    gc.collect()
    assert np.allclose(x, expected, atol=1e-5)  # still valid: the view owns a share


def test_unknown_column_is_a_key_error_naming_it():
    r = hdae.simulate(Decay(), stop=0.1)
    with pytest.raises(KeyError, match="no column 'z'"):
        r["z"]
    assert r.columns == ["x", "der(x)", "y"]
    assert "x" in r and "z" not in r


def test_options_are_validated_with_the_cpp_messages():
    message = r"SimulationOptions::rel_tol must be in \(0, 1\), got 2"
    with pytest.raises(hdae.OptionError, match=message):
        hdae.simulate(Decay(), rtol=2)
    with pytest.raises(ValueError, match="stop_s"):
        hdae.simulate(Decay(), start=1.0, stop=0.5)
    with pytest.raises(TypeError, match="unexpected option 'rtl'"):
        hdae.simulate(Decay(), rtl=1e-6)
    with pytest.raises(TypeError, match="got option stop_s twice"):
        hdae.simulate(Decay(), stop=1.0, stop_s=2.0)
    with pytest.raises(TypeError, match="option rel_tol must be a number"):
        hdae.simulate(Decay(), rel_tol="tight")
    with pytest.raises(ValueError, match="option linear_solver must be one of"):
        hdae.simulate(Decay(), linear_solver="lu")
    with pytest.raises(TypeError, match="needs an hdae model"):
        hdae.simulate("decay")


def test_options_reach_the_engine():
    r = hdae.simulate(Decay(), stop=2.0, output_interval=0.5, linear_solver="dense",
                      max_step=0.01, log_level="off")
    assert np.allclose(r.time, [0.0, 0.5, 1.0, 1.5, 2.0])
    assert r.statistics["steps"] >= 200  # max_step 0.01 over 2 s


def test_restart_step_is_an_option_by_its_value_name():
    # The ball's three impacts before 1.2 s restart IDA; from the step size before each impact
    # it needs fewer steps than from IDA's own tiny first step.
    default = hdae.simulate(Ball(), stop=1.2, rtol=1e-8)
    history = hdae.simulate(Ball(), stop=1.2, rtol=1e-8, restart_step="from_history")
    assert default.statistics["restarts"] == history.statistics["restarts"] == 4
    assert history.statistics["steps"] < default.statistics["steps"]
    # IDA goes on at its order with its history shifted to each rebound: fewer steps still.
    keep = hdae.simulate(Ball(), stop=1.2, rtol=1e-8, restart_step="keep_order")
    assert keep.statistics["restarts"] == 4
    assert keep.statistics["steps"] < default.statistics["steps"]
    with pytest.raises(ValueError, match="option restart_step must be one of 'ida_estimate', "
                                         "'from_history', 'keep_order'"):
        hdae.simulate(Ball(), restart_step="previous")


def test_slices_of_a_simulator_give_the_rows_of_one_run():
    # hdae::Simulator never stops IDA at a slice boundary, so the rows agree bit for bit.
    whole = hdae.simulate(Ball(), stop=1.2, rtol=1e-8)
    sim = hdae.Simulator(Ball(), stop=1.2, rtol=1e-8)
    assert sim.initialize().outcome == "running"
    times = []
    while sim.status.outcome == "running":
        sim.advance_to(min(sim.time + 0.25, 1.2))
        times.append(sim.time)
        assert len(sim.state) == 2 and len(sim.derivatives) == 2
    assert times[-1] == 1.2 and sim.status.outcome == "reached stop time"
    assert len(sim.events) == len(whole.events)
    r = sim.result
    assert np.array_equal(r.values, whole.values) and np.array_equal(r.time, whole.time)
    assert sim.result.status.outcome == "reached stop time"  # the same result again
    with pytest.raises(RuntimeError, match="result was taken"):
        sim.advance_to(1.2)
    with pytest.raises(ValueError):
        hdae.Simulator(Ball(), stop=1.0).advance_to(2.0)  # beyond stop_s


def test_write_csv_and_plot(tmp_path):
    r = hdae.simulate(Ball(), stop=1.0)
    files = r.write_csv(tmp_path / "ball.csv")
    assert [f.name for f in files] == ["ball.csv", "ball.units.csv", "ball.events.csv",
                                       "ball.params.csv"]
    header = (tmp_path / "ball.csv").read_text().splitlines()[0]
    assert header.startswith("time,h,v")
    fig = r.plot("h", "v", path=tmp_path / "ball.png")
    assert (tmp_path / "ball.png").stat().st_size > 1000
    assert len(fig.axes[0].lines) >= 3  # two signals and the impact marker
    with pytest.raises(KeyError, match="no column 'q'"):
        r.plot("q")


def test_write_csv_to_an_empty_path_names_it_and_creates_nothing(tmp_path, monkeypatch):
    r = hdae.simulate(Ball(), stop=0.1)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OSError, match="path must not be empty"):
        r.write_csv("")
    assert list(tmp_path.iterdir()) == []


def test_engine_failure_raises_engine_error_with_the_partial_result():
    # The CSV sink cannot open its file: a failure of the engine (a row sink), not the model's.
    message = "/nonexistent/x.csv: cannot open for writing"
    with pytest.raises(hdae.EngineError, match=message) as info:
        hdae.simulate(Decay(), sinks=["memory", "csv:/nonexistent/x.csv"])
    assert isinstance(info.value, RuntimeError)
    assert info.value.partial_result.status.outcome == "engine failure"


def option_error(**options):
    with pytest.raises(hdae.OptionError) as info:
        hdae.simulate(Decay(), **options)
    return str(info.value)


def test_numbers_the_field_cannot_hold_are_option_errors_naming_it():
    # The rule is validate()'s (engine/src/simulator/options.cpp), the value the one given.
    assert option_error(max_order=2**31) == \
        "SimulationOptions::max_order must be in [1, 5], got 2147483648"
    assert option_error(max_order=-1) == "SimulationOptions::max_order must be in [1, 5], got -1"
    assert option_error(threads=2**64 - 1) == (
        "SimulationOptions::threads must be in [0, 256] (0 or 1: serial vectors; n > 1: OpenMP "
        "vectors with n threads), got 18446744073709551615")
    assert option_error(sparse_min_unknowns=-1) == \
        "SimulationOptions::sparse_min_unknowns must be >= 1, got -1"
    # 2**63 - 1 would be valid: the limit is the C++ type's (a 64-bit long).
    assert option_error(max_steps_per_interval=2**63) == (
        "SimulationOptions::max_steps_per_interval must be <= 9223372036854775807 (the range "
        "of its C++ type), got 9223372036854775808")
    assert option_error(stop=10**400) == "SimulationOptions::stop_s must be finite, got 1.000e+400"
    assert option_error(sinks=["csv:a\0b.csv"]) == (
        "SimulationOptions::sinks[0] names a file with a NUL character, which no file system "
        "accepts")
    assert option_error(max_order=np.int64(7)) == \
        "SimulationOptions::max_order must be in [1, 5], got 7"


def test_every_integer_option_has_the_range_of_its_type():
    from hdae import _hdae
    from hdae._options import field_names

    defaults = hdae.SimulationOptions()
    integers = {n for n in field_names() if type(getattr(defaults, n)) is int}
    assert integers == set(_hdae._integer_option_ranges)
    assert _hdae._integer_option_ranges["max_order"] == (-2**31, 2**31 - 1)  # a C++ int
    assert _hdae._integer_option_ranges["sparse_min_unknowns"] == (0, 2**64 - 1)  # size_t


def test_bundled_model_parameters_that_are_no_double_are_named():
    with pytest.raises(TypeError) as info:
        hdae.models.IdealClutch(J2=np.array([1.0, 2.0]))
    assert str(info.value) == \
        "model 'ideal_clutch': parameter J2 must be a number, got array([1., 2.])"
    with pytest.raises(hdae.ModelError) as info:
        hdae.models.IdealClutch(J2=10**400)
    assert str(info.value) == (
        "model 'ideal_clutch': parameter 'J2' (inertia of shaft 2) must be a finite number in "
        "[5e-324, inf] kg.m2, got 1.000e+400")
    assert hdae.models.IdealClutch(J2=np.float32(0.5)).parameter("J2") == 0.5


def test_recording_options_are_keywords_like_every_other_field():
    # Every SimulationOptions field is a keyword (docs/python.md): the output times, the columns and
    # kinds recorded, the rows recorded and every how many grid points.
    pendulum = hdae.models.Pendulum
    r = hdae.simulate(pendulum(), stop=1.0, output_times=np.array([0.0, 0.25, 0.5, 1.0]))
    assert list(r.time) == [0.0, 0.25, 0.5, 1.0]
    r = hdae.simulate(pendulum(), stop=1.0, record_columns=["phi"], record_kinds=["output"])
    assert [c for c, kind in r.kinds.items() if kind != "output"] == ["phi"]
    r = hdae.simulate(pendulum(), stop=1.0, record_rows="events_only")
    assert list(r.time) == [0.0, 1.0]  # no event: the start and the last row
    r = hdae.simulate(pendulum(), stop=1.0, output_interval=0.1, record_every=5)
    assert list(r.time) == pytest.approx([0.0, 0.5, 1.0])
    with pytest.raises(TypeError, match="option record_columns must be a sequence, got 'phi'"):
        hdae.simulate(pendulum(), stop=1.0, record_columns="phi")
    with pytest.raises(ValueError, match="option record_kinds holds one of 'state', "
                                         "'derivative', 'output', got 'states'"):
        hdae.simulate(pendulum(), stop=1.0, record_kinds=["states"])
    with pytest.raises(ValueError, match="record_every must be >= 1"):
        hdae.simulate(pendulum(), stop=1.0, record_every=0)


def test_sinks_name_where_the_rows_go_and_each_gets_the_same_rows(tmp_path):
    # The sinks as texts: the table in memory, a CSV and an HDF5 file, written as the run goes.
    csv, h5 = tmp_path / "run.csv", tmp_path / "run.h5"
    r = hdae.simulate(Ball(), stop=1.0, sinks=["memory", f"csv:{csv}", f"hdf5:{h5}"])
    header = csv.read_text().splitlines()[0].split(",")
    rows = np.loadtxt(csv, delimiter=",", skiprows=1)
    assert header == ["time"] + r.columns
    assert np.array_equal(rows[:, 0], r.time)
    assert np.array_equal(rows[:, 1:], np.column_stack([r[c] for c in r.columns]))
    assert h5.read_bytes().startswith(b"\x89HDF\r\n\x1a\n")
    # Without "memory" the result holds no rows; the file holds them all.
    streamed = hdae.simulate(Ball(), stop=1.0, sinks=[hdae.SinkSpec(f"csv:{tmp_path / 'b.csv'}")])
    assert len(streamed.time) == 0
    assert np.array_equal(np.loadtxt(tmp_path / "b.csv", delimiter=",", skiprows=1), rows)
    assert str(hdae.SinkSpec("hdf5:run.h5")) == "hdf5:run.h5"
    assert option_error(sinks=["disk"]) == (
        "SimulationOptions::sinks entry must be 'memory', 'csv:<file>' or 'hdf5:<file>', got "
        "'disk'")
    assert option_error(sinks=["memory", "memory"]) == (
        "SimulationOptions::sinks[1] repeats sinks[0]: the rows are kept in memory once")
    with pytest.raises(TypeError, match="option sinks holds 'memory', 'csv:<file>' or "
                                        "'hdf5:<file>', got 3"):
        hdae.simulate(Ball(), stop=1.0, sinks=[3])


def test_help_of_simulate_names_every_option_with_its_keywords_default_and_doc():
    from hdae._options import ALIASES
    options = hdae.SimulationOptions()
    fields = [n for n in dir(hdae.SimulationOptions)
              if not n.startswith("_") and not callable(getattr(options, n))]
    assert {"start_s", "rel_tol", "linear_solver", "output_interval_s", "log_level"} <= set(fields)

    def shown(value):  # a default as the keyword takes it
        if hasattr(value, "__members__"):  # an enum: the string of its value name
            return repr(value.name)
        if isinstance(value, list) and all(isinstance(v, hdae.SinkSpec) for v in value):
            return repr([str(v) for v in value])  # sinks by their texts
        return repr(value)

    for function in (hdae.simulate, hdae.Simulator):
        # An option's entry: a line "name, short forms = default" followed by its docstring.
        text = inspect.getdoc(function)
        entries = {}
        for line in text.splitlines():
            keywords, equals, default = line.partition(" = ")
            if equals and not line.startswith(" "):
                entries[keywords.split(", ")[0]] = (keywords.split(", "), default)
        for name in fields:
            doc = inspect.getdoc(getattr(hdae.SimulationOptions, name))
            assert doc and doc.strip(), f"SimulationOptions.{name} has no docstring"
            assert name in entries, f"help(hdae.{function.__name__}) does not list {name}"
            keywords, default = entries[name]
            assert default == shown(getattr(options, name)), f"default of {name}: {default}"
            short_forms = sorted(a for a, n in ALIASES.items() if n == name)
            assert sorted(keywords[1:]) == short_forms, f"short forms of {name}: {keywords}"
            assert " ".join(doc.split()) in " ".join(text.split()), f"docstring of {name}"
