#!/usr/bin/python3
"""Plots of hdae result CSVs for people.

    plot.py result.csv out.png [signal ...]
        Time on x, one panel per unit (from <stem>.units.csv beside the CSV, written by
        hdae::write_result_files) or, without a units file, one panel per signal; at most
        six panels. Event instants (rows with equal time: the left and right limits) are
        vertical dotted lines. Without signals, every column except derivatives, up to
        twelve. The output format follows the extension (.png, .svg, .pdf). The CSV is read a
        row at a time and only the columns drawn are kept, so a long result needs the memory
        of those columns, not of the file.

    plot.py --compare trace.csv out.png [--signal NAME] [--units-from result.csv]
            [--title TEXT]
        Reference, tube and result of one signal, as hdae-compare --report writes them
        (columns time,reference,lower,upper,result,outside), with a second panel of the
        deviation from the reference so that a thin tube stays visible.

    plot.py --name NAME ...
        Messages start with "NAME: " instead of "plot.py: " (hdae plot passes its own name).

Runs with Debian's /usr/bin/python3 and python3-matplotlib (scripts/plot.sh calls it so).
Exit status: 0 written, 2 bad arguments or input: a file that is not a regular file (a pipe,
a device), not UTF-8 text (an HDF5 result), not a result CSV, or values matplotlib cannot
draw; the message names the file.
"""

import array
import csv
import itertools
import math
import os
import stat
import sys
import warnings

MAX_PANELS = 6
MAX_DEFAULT_SIGNALS = 12
MAX_EVENT_LINES = 200
MAX_LISTED_COLUMNS = 20
PROGRAM = "plot.py"  # the name in front of messages (--name)
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"


class InputError(Exception):
    """A file or argument that cannot be used; the message names it (and the line)."""


def _check_regular(path):
    """InputError unless path is a regular file holding no HDF5 result."""
    # A pipe or a device would block the read or never end it.
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise InputError(f"{path}: not a regular file (a pipe, a device or a directory)")
    with open(path, "rb") as f:
        if f.read(len(HDF5_SIGNATURE)) == HDF5_SIGNATURE:
            raise InputError(f"{path}: an HDF5 result file; plots are drawn from result "
                             "CSVs (an output path ending in .csv writes one)")


class _Lines:
    """The lines of a text file that hold rows (no blank lines, no '#' comments), read one at
    a time; `number` is the file's line number of the last one handed out."""

    def __init__(self, f):
        self._numbered = enumerate(f, start=1)
        self.number = 0

    def __iter__(self):
        return self

    def __next__(self):
        for n, line in self._numbered:
            line = line.rstrip("\r\n")
            if line.strip() and not line.startswith("#"):
                self.number = n
                return line
        raise StopIteration


def _separator(header):
    """',' or ';', the first separator outside quotes in the header (',' when none)."""
    quoted = False
    for c in header:
        if c == '"':
            quoted = not quoted
        elif not quoted and c in ",;":
            return c
    return ","


def read_table(path, wanted=None):
    """Reads a result CSV as hdae's read_csv does: ',' or ';', '#' comments, blank lines
    skipped, first column "time" or "t", time non-decreasing. Returns (time_name, names,
    times, columns) with columns a dict name -> values for the names wanted(names) returns
    (every name when wanted is None). The file is read a row at a time and only those columns
    are kept: a table of 10^6 rows costs the memory of the columns drawn, not of the file."""
    try:
        _check_regular(path)
        with open(path, newline="", encoding="utf-8") as f:
            lines = _Lines(f)
            header = next(lines, None)
            if header is None:
                raise InputError(f"{path}: empty file (no header line)")
            header_line = lines.number
            reader = csv.reader(itertools.chain([header], lines), delimiter=_separator(header),
                                skipinitialspace=True)
            return _read_rows(path, reader, lines, header_line, wanted)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file (not UTF-8)") from None
    except csv.Error as e:  # a field beyond csv's size limit, a NUL byte
        raise InputError(f"{path}:{lines.number}: {e}") from None


def _read_rows(path, reader, lines, header_line, wanted):
    names = [name.strip() for name in next(reader)]
    if names[0].lower() not in ("time", "t"):
        raise InputError(f'{path}:{header_line}: the first column must be "time" or "t", '
                         f'found "{names[0]}"')
    kept = set(names[1:] if wanted is None else wanted(names[1:]))
    keep = [(k + 1, name) for k, name in enumerate(names[1:]) if name in kept]
    times = array.array("d")
    columns = {name: array.array("d") for _, name in keep}
    for fields in reader:
        if len(fields) != len(names):
            raise InputError(f"{path}:{lines.number}: expected {len(names)} fields, "
                             f"found {len(fields)}")
        try:
            values = [float(v) for v in fields]
        except ValueError:
            raise InputError(f"{path}:{lines.number}: a field is not a number") from None
        if times and values[0] < times[-1]:
            raise InputError(f"{path}:{lines.number}: time decreases from {times[-1]} "
                             f"to {values[0]}")
        times.append(values[0])
        for k, name in keep:
            columns[name].append(values[k])
    return names[0], names[1:], times, columns


def units_file_of(csv_path):
    """<dir>/<stem>.units.csv beside <dir>/<stem>.csv."""
    root, _ = os.path.splitext(csv_path)
    return root + ".units.csv"


def read_units(csv_path):
    """{name: (unit, kind)} from the units file beside csv_path; {} when there is none."""
    path = units_file_of(csv_path)
    if not os.path.exists(path):
        return {}
    units = {}
    with open(path, newline="", encoding="utf-8") as f:
        for fields in csv.reader(f):
            if len(fields) >= 2:
                units[fields[0]] = (fields[1], fields[2] if len(fields) > 2 else "")
    return units


def event_times(times):
    """Distinct times that two or more consecutive rows share."""
    events = []
    for a, b in zip(times, times[1:]):
        if a == b and (not events or events[-1] != a):
            events.append(a)
    return events


def draw_events(axes, events):
    for t in events[:MAX_EVENT_LINES]:
        for ax in axes:
            ax.axvline(t, linestyle=":", color="0.45", linewidth=0.8, zorder=0)


def group_signals(names, units):
    """Panels as (unit, [names]): by unit when units are known, else one per signal; at
    most MAX_PANELS (the last panel takes what does not fit)."""
    if units:
        groups = []
        for name in names:
            unit = units.get(name, ("", ""))[0]
            for g in groups:
                if g[0] == unit:
                    g[1].append(name)
                    break
            else:
                groups.append((unit, [name]))
        if len(groups) > MAX_PANELS:
            rest = [n for _, g in groups[MAX_PANELS - 1:] for n in g]
            groups = groups[:MAX_PANELS - 1] + [("mixed units", rest)]
        return groups
    if len(names) <= MAX_PANELS:
        return [("", [n]) for n in names]
    per_panel = math.ceil(len(names) / MAX_PANELS)
    return [("", names[i:i + per_panel]) for i in range(0, len(names), per_panel)]


def axis_label(names, unit):
    label = ", ".join(names)
    if len(label) > 32:
        label = names[0] + ", ..."
    return f"{label} [{unit}]" if unit else label


def check_span(path, label, values):
    """Raises InputError when the finite values span more than a double holds (1e308 and
    -1e308): matplotlib's axis then fails with an IndexError."""
    finite = [v for v in values if math.isfinite(v)]
    if finite and not math.isfinite(max(finite) - min(finite)):
        raise InputError(f"{path}: {label}: the values from {min(finite):g} to {max(finite):g} "
                         "span more than a double holds; no axis can show them")


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def chosen_signals(csv_path, names, units, signals):
    """The signals to draw: those given, each a column of the file, or every column but the
    derivatives, up to MAX_DEFAULT_SIGNALS."""
    if signals:
        missing = [s for s in signals if s not in names]
        if missing:
            shown = ", ".join(names[:MAX_LISTED_COLUMNS])
            if len(names) > MAX_LISTED_COLUMNS:
                shown += f" and {len(names) - MAX_LISTED_COLUMNS} more"
            raise InputError(f"{csv_path}: no column "
                             f"{', '.join(chr(34) + m + chr(34) for m in missing)} "
                             f"(the columns are {shown})")
        return list(signals)
    chosen = [n for n in names
              if units.get(n, ("", ""))[1] != "derivative" and not n.startswith("der(")]
    if len(chosen) > MAX_DEFAULT_SIGNALS:
        print(f"plot.py: plotting the first {MAX_DEFAULT_SIGNALS} of {len(chosen)} "
              "signals; name the signals to choose", file=sys.stderr)
        chosen = chosen[:MAX_DEFAULT_SIGNALS]
    if not chosen:
        raise InputError(f"{csv_path}: no signal to plot")
    return chosen


def plot_result(csv_path, out_path, signals):
    units = read_units(csv_path)
    chosen = []

    def wanted(names):
        chosen.extend(chosen_signals(csv_path, names, units, signals))
        return chosen

    time_name, names, times, columns = read_table(csv_path, wanted)
    signals = chosen
    groups = group_signals(signals, units)
    check_span(csv_path, time_name, times)
    for _, group in groups:
        check_span(csv_path, ", ".join(group), [v for name in group for v in columns[name]])
    plt = pyplot()
    fig, axes = plt.subplots(len(groups), 1, sharex=True, squeeze=False,
                             figsize=(8, 1.0 + 2.2 * len(groups)))
    axes = [row[0] for row in axes]
    for ax, (unit, group) in zip(axes, groups):
        for name in group:
            ax.plot(times, columns[name], label=name, linewidth=1.2)
        ax.set_ylabel(axis_label(group, unit))
        ax.grid(True, linewidth=0.3, alpha=0.6)
        if len(group) > 1:
            ax.legend(loc="best", fontsize="small")
    events = event_times(times)
    draw_events(axes, events)
    time_unit = units.get(time_name, ("s", ""))[0] or "s"
    axes[-1].set_xlabel(f"{time_name} [{time_unit}]")
    title = os.path.basename(csv_path)
    if events:
        title += f"  (dotted: {len(events)} event{'s' if len(events) != 1 else ''})"
    axes[0].set_title(title, fontsize="medium")
    fig.tight_layout()
    save(fig, out_path)


def plot_compare(trace_path, out_path, signal, units_from, title):
    _, names, times, columns = read_table(trace_path)
    expected = ["reference", "lower", "upper", "result", "outside"]
    if names != expected:
        raise InputError(f"{trace_path}: expected columns time,{','.join(expected)}")
    ref, lower, upper, res, outside = (columns[name] for name in expected)
    unit = ""
    if units_from and signal:
        unit = read_units(units_from).get(signal, ("", ""))[0]
    plt = pyplot()
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(8, 6),
                                      gridspec_kw={"height_ratios": [3, 2]})
    top.fill_between(times, lower, upper, color="tab:blue", alpha=0.25, linewidth=0,
                     label="tube")
    top.plot(times, ref, color="black", linewidth=0.9, label="reference")
    top.plot(times, res, color="tab:orange", linewidth=1.1, label="result")
    bad = [i for i, flag in enumerate(outside) if flag]
    if bad:
        top.plot([times[i] for i in bad], [res[i] for i in bad], "x", color="tab:red",
                 markersize=5, label="outside the tube")
    top.set_ylabel(axis_label([signal or "value"], unit))
    top.legend(loc="best", fontsize="small")
    top.grid(True, linewidth=0.3, alpha=0.6)

    # The deviation panel: tube and result relative to the reference.
    bottom.fill_between(times, [lo - r for lo, r in zip(lower, ref)],
                        [up - r for up, r in zip(upper, ref)], color="tab:blue", alpha=0.25,
                        linewidth=0)
    dev = [y - r for y, r in zip(res, ref)]
    bottom.plot(times, dev, color="tab:orange", linewidth=1.1)
    if bad:
        bottom.plot([times[i] for i in bad], [dev[i] for i in bad], "x", color="tab:red",
                    markersize=5)
    bottom.axhline(0.0, color="black", linewidth=0.6)
    bottom.set_ylabel(f"result - reference [{unit}]" if unit else "result - reference")
    bottom.set_xlabel("time [s]")
    bottom.grid(True, linewidth=0.3, alpha=0.6)
    draw_events([top, bottom], event_times(times))
    top.set_title(title or f"{signal or os.path.basename(trace_path)}: reference, tube, result",
                  fontsize="medium")
    fig.tight_layout()
    save(fig, out_path)


def save(fig, out_path):
    try:
        fig.savefig(out_path, dpi=120)
    except OSError as e:
        raise InputError(f"{out_path}: cannot write ({e.strerror or e})") from None
    except ValueError as e:
        raise InputError(f"{out_path}: {e}") from None


def main(argv):
    if len(argv) >= 2 and argv[0] == "--name":
        global PROGRAM
        PROGRAM = argv[1]
        argv = argv[2:]
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    if argv[0] == "--compare":
        args = argv[1:]
        options = {"--signal": "", "--units-from": "", "--title": ""}
        positional = []
        i = 0
        while i < len(args):
            if args[i] in options:
                if i + 1 >= len(args):
                    raise InputError(f"{args[i]} needs a value")
                options[args[i]] = args[i + 1]
                i += 2
            elif args[i].startswith("--"):
                raise InputError(f'unknown option "{args[i]}"')
            else:
                positional.append(args[i])
                i += 1
        if len(positional) != 2:
            raise InputError("--compare needs trace.csv and out.png")
        draw(positional[0], lambda: plot_compare(positional[0], positional[1],
                                                 options["--signal"], options["--units-from"],
                                                 options["--title"]))
    else:
        draw(argv[0], lambda: plot_result(argv[0], argv[1], argv[2:]))
    return 0


def draw(path, plot):
    """Runs plot(); matplotlib's axes fail with IndexError or OverflowError on values near the
    ends of the double range (0 and 1.7e308) that check_span lets through."""
    try:
        with warnings.catch_warnings():
            # numpy's overflow warnings on such values: the plot is drawn or the error says so.
            warnings.simplefilter("ignore", RuntimeWarning)
            plot()
    except (IndexError, OverflowError) as e:
        raise InputError(f"{path}: matplotlib cannot draw these values "
                         f"({type(e).__name__}: {e})") from None


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except InputError as e:
        print(f"{PROGRAM}: {e}", file=sys.stderr)
        sys.exit(2)
    except ImportError as e:
        print(f"{PROGRAM}: {e}; install python3-matplotlib and run with /usr/bin/python3",
              file=sys.stderr)
        sys.exit(2)
