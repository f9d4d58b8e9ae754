"""Gathers the HDF5 results files of a rackscale study (jobs/*.sbatch, jobs/submit --local) into
one table and plots. Run through jobs/collect, which loads the site's environment first:

  jobs/collect RESULTS_DIR [--study run|strong-scaling|weak-scaling|sweep] [--metric /GROUP@ATTRIBUTE]... [--no-plots]

Reads every *.h5 in RESULTS_DIR: each --metric (an attribute of a group, such as
/traffic@line_rate_fraction or /training@mfu; /@ATTRIBUTE is a root attribute), the run's own
overrides from NAME.overrides, and the root attributes that say which run it is and how the engine
did (IDENTITY and ENGINE below; docs/output.md). Writes into RESULTS_DIR:
  runs.csv            one row per run: the metrics first, then the run, then the engine's figures,
                      all in SI units with the unit in the column's name (a metric
                      /training@iteration_time_ps is the column training_iteration_time_s)
  speedup.png, efficiency.png, events-per-rank.png    for strong and weak scaling
  metric-COLUMN.png                                   each --metric against ranks or sweep point
and prints the table. Speedup S(n) and parallel efficiency E(n) = S(n)/n are relative to the
smallest rank count n0 with T the engine's wall time (wall_s): strong scaling S(n) = n0 T(n0)/T(n),
weak scaling S(n) = n T(n0)/T(n) (scaled speedup). Exit codes: 0 done, 2 bad input (no results,
unknown study, a metric no file has), 1 internal error."""

import argparse
import csv
import os
import re
import sys

STUDIES = ("run", "strong-scaling", "weak-scaling", "sweep")

# The results file's root attributes in runs.csv, as (CSV column, HDF5 attribute): which run it is,
# then how the engine did. A renamed attribute (docs/output.md) is one edit here.
IDENTITY = (("scenario", "scenario"), ("workload", "workload"), ("network_fidelity", "network_fidelity"),
            ("ranks", "ranks"), ("partition_method", "partition_method"))
ENGINE = (("setup_s", "setup_s"), ("wall_s", "wall_s"), ("events", "events"), ("events_per_s", "events_per_s"),
          ("windows", "windows"))

# Attributes in other units than SI, by the unit suffix of their name: the SI suffix and the factor.
TO_SI = {"_ps": ("_s", 1e-12), "_ns": ("_s", 1e-9), "_us": ("_s", 1e-6), "_ms": ("_s", 1e-3)}
# Seconds on a plot's axis: the largest unit in which the largest value is at least 1.
TIME_SCALES = (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9), ("ps", 1e-12))


class BadInput(Exception):
    """A problem with what the user gave: exit code 2."""


def plain(value):
    """An HDF5 attribute value as a Python scalar or string."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, bytes):
        value = value.decode("utf-8").rstrip("\0")
    return value


def parse_metric(text):
    match = re.fullmatch(r"(/[^@]*)@([^@/]+)", text)
    if not match:
        raise BadInput(f"--metric: expected /GROUP@ATTRIBUTE such as /traffic@line_rate_fraction, found '{text}'")
    return match.group(1), match.group(2)


def si_name(attribute):
    """The attribute's name with its unit suffix made SI, and the factor that converts its values."""
    for suffix, (si_suffix, factor) in TO_SI.items():
        if attribute.endswith(suffix):
            return attribute[:-len(suffix)] + si_suffix, factor
    return attribute, 1


def metric_column(metric):
    """runs.csv's column of a metric: /traffic@completion_p99_ps is traffic_completion_p99_s."""
    group, attribute = metric
    prefix = group.strip("/").replace("/", "_")
    name = si_name(attribute)[0]
    return f"{prefix}_{name}" if prefix else name


def is_time(column):
    """A time in seconds (completion_p99_s), not a rate (events_per_s)."""
    return column.endswith("_s") and not column.endswith("_per_s")


def natural_key(name):
    """Sorts point-2 before point-10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def read_overrides(path):
    overrides = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                line = line.rstrip("\n")
                if line:
                    key, _, value = line.partition("=")
                    overrides[key] = value
    return overrides


def read_run(h5py, directory, name, metrics):
    """One row: the file's root attributes, its overrides, and the metrics it has."""
    path = os.path.join(directory, name + ".h5")
    with h5py.File(path, "r") as results:
        attributes = results.attrs
        missing = [attribute for _, attribute in IDENTITY + ENGINE if attribute not in attributes]
        if missing:
            raise BadInput(f"{path}: expected the root attributes of a rackscale results file "
                           f"(docs/output.md), found none named {', '.join(missing)}")
        row = {"run": name}
        row.update({column: plain(attributes[attribute]) for column, attribute in IDENTITY + ENGINE})
        row["events_per_s_per_rank"] = row["events_per_s"] / row["ranks"]
        overrides = read_overrides(os.path.join(directory, name + ".overrides"))
        values = {}
        for metric in metrics:
            group, attribute = metric
            if group in results and attribute in results[group].attrs:
                value = plain(results[group].attrs[attribute])
                if isinstance(value, list):
                    raise BadInput(f"--metric {group}@{attribute}: {path} holds {len(value)} values there; "
                                   f"a metric is one value per run")
                factor = si_name(attribute)[1]
                values[metric] = value * factor if factor != 1 and isinstance(value, (int, float)) else value
            else:
                values[metric] = None
        available = {group: sorted(results[group].attrs.keys()) for group, _ in metrics if group in results}
    return row, overrides, values, available


def add_scaling(rows, study):
    """Speedup and parallel efficiency against the smallest rank count."""
    base = min(rows, key=lambda row: row["ranks"])
    for row in rows:
        n0, n = base["ranks"], row["ranks"]
        ratio = base["wall_s"] / row["wall_s"] if row["wall_s"] > 0 else float("nan")
        row["speedup"] = (n0 if study == "strong-scaling" else n) * ratio
        row["efficiency"] = row["speedup"] / n


def format_cell(value, digits=6):
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    return "" if value is None else str(value)


def write_csv(path, columns, rows):
    partial = f"{path}.partial-{os.getpid()}"
    with open(partial, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(columns)
        for row in rows:
            # Enough digits for a double's figures, not its binary noise (a time in ps times 1e-12).
            writer.writerow([format_cell(row.get(column), 12) for column in columns])
    os.replace(partial, path)


def print_table(columns, rows):
    cells = [[format_cell(row.get(column)) for column in columns] for row in rows]
    widths = [max([len(column)] + [len(line[i]) for line in cells]) for i, column in enumerate(columns)]
    print("| " + " | ".join(column.ljust(width) for column, width in zip(columns, widths)) + " |")
    print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    for line in cells:
        print("| " + " | ".join(cell.rjust(width) for cell, width in zip(line, widths)) + " |")


def plot_scaling(pyplot, directory, rows, study, title):
    ranks = [row["ranks"] for row in rows]
    figures = {
        "speedup.png": ("speedup", "speedup" if study == "strong-scaling" else "scaled speedup", True),
        "efficiency.png": ("efficiency", "parallel efficiency", False),
        "events-per-rank.png": ("events_per_s_per_rank", "events/s per rank", False),
    }
    written = []
    for file_name, (column, label, ideal) in figures.items():
        figure, axes = pyplot.subplots(figsize=(5, 3.5))
        axes.plot(ranks, [row[column] for row in rows], "o-", label="measured")
        if ideal:
            axes.plot(ranks, ranks, "--", color="grey", label="ideal")
            axes.legend()
        if column == "efficiency":
            axes.axhline(1.0, linestyle="--", color="grey")
            axes.set_ylim(0, max(1.1, max(row[column] for row in rows) * 1.1))
        axes.set_xscale("log", base=2)
        axes.set_xticks(ranks, [str(n) for n in ranks])
        axes.set_xlabel("MPI ranks")
        axes.set_ylabel(label)
        axes.set_title(f"{title}: {study}", fontsize=9)
        axes.grid(True, alpha=0.3)
        figure.tight_layout()
        figure.savefig(os.path.join(directory, file_name), dpi=100)
        pyplot.close(figure)
        written.append(file_name)
    return written


def axis_scale(column, values):
    """The label of a column's axis and the factor to divide its values by: a time goes in the unit
    that suits its values (traffic_completion_p99 (µs)); other columns carry their unit in the name."""
    if not is_time(column):
        return column, 1.0
    largest = max((abs(value) for value in values), default=0)
    unit, factor = next((scale for scale in TIME_SCALES if largest >= scale[1]), TIME_SCALES[-1])
    return f"{column[:-2]} ({unit})", factor


def plot_metric(pyplot, directory, rows, study, metric, parameters, title):
    column = metric_column(metric)
    present = [row for row in rows if row.get(column) is not None]
    label, factor = axis_scale(column, [row[column] for row in present])
    values = [row[column] / factor for row in present]
    figure, axes = pyplot.subplots(figsize=(max(5, 0.6 * len(present) + 2), 3.5))
    if study in ("strong-scaling", "weak-scaling"):
        ranks = [row["ranks"] for row in present]
        axes.plot(ranks, values, "o-")
        axes.set_xscale("log", base=2)
        axes.set_xticks(ranks, [str(n) for n in ranks])
        axes.set_xlabel("MPI ranks")
    else:
        labels = [", ".join(str(row.get(key, "")) for key in parameters) or row["run"] for row in present]
        axes.bar(range(len(present)), values)
        axes.set_xticks(range(len(present)), labels, rotation=30, ha="right", fontsize=8)
        axes.set_xlabel(", ".join(parameters) or "run")
    axes.set_ylabel(label)
    axes.set_title(title, fontsize=9)
    axes.grid(True, axis="y", alpha=0.3)
    figure.tight_layout()
    file_name = f"metric-{column}.png"
    figure.savefig(os.path.join(directory, file_name), dpi=100)
    pyplot.close(figure)
    return file_name


def collect(arguments):
    directory = arguments.results_dir
    if not os.path.isdir(directory):
        raise BadInput(f"RESULTS_DIR '{directory}': expected a directory of results, found none")
    study = arguments.study
    if study is None:
        marker = os.path.join(directory, "study")
        study = open(marker, encoding="utf-8").read().strip() if os.path.exists(marker) else "run"
    if study not in STUDIES:
        raise BadInput(f"--study: expected one of {', '.join(STUDIES)}, found '{study}'")
    metrics = [parse_metric(text) for text in arguments.metric]

    names = sorted((entry[:-3] for entry in os.listdir(directory) if entry.endswith(".h5")), key=natural_key)
    for entry in sorted(os.listdir(directory)):
        if ".h5.partial-" in entry:
            print(f"collect: {entry}: a run that was killed while writing (ignored; safe to delete)", file=sys.stderr)
        elif entry.endswith(".log") and entry[:-4] not in names:
            print(f"collect: {entry[:-4]}: no results file: the run failed; see {entry} and the Slurm log",
                  file=sys.stderr)
    if not names:
        raise BadInput(f"{directory}: expected rackscale results files (*.h5), found none")

    import h5py  # here, so that --help and argument errors need no HDF5
    rows, parameters, available = [], [], {}
    for name in names:
        row, overrides, values, groups = read_run(h5py, directory, name, metrics)
        for key, value in overrides.items():
            if key not in parameters:
                parameters.append(key)
            row[key] = value
        for metric, value in values.items():
            row[metric_column(metric)] = value
        for group, keys in groups.items():
            available.setdefault(group, keys)
        rows.append(row)
    for metric in metrics:
        if all(row[metric_column(metric)] is None for row in rows):
            group, attribute = metric
            found = (f"its attributes are {', '.join(available[group])}" if group in available
                     else "no such group")
            raise BadInput(f"--metric {group}@{attribute}: no results file has it; {group}: {found}")

    if study in ("strong-scaling", "weak-scaling"):
        rows.sort(key=lambda row: row["ranks"])
        add_scaling(rows, study)
    if study == "strong-scaling":
        # The simulation's results do not depend on the rank count (docs/engine.md): a metric that
        # does is a bug worth seeing.
        for metric in metrics:
            column = metric_column(metric)
            if len({row[column] for row in rows if row[column] is not None}) > 1:
                print(f"collect: warning: {column} differs between rank counts; results should be identical",
                      file=sys.stderr)

    # What the user asked for first, then which run it is, then how the engine did.
    columns = [metric_column(metric) for metric in metrics] + ["run"] + parameters
    columns += [column for column, _ in IDENTITY] + [column for column, _ in ENGINE] + ["events_per_s_per_rank"]
    if study in ("strong-scaling", "weak-scaling"):
        columns += ["speedup", "efficiency"]
    write_csv(os.path.join(directory, "runs.csv"), columns, rows)
    print_table(columns, rows)

    written = ["runs.csv"]
    if study != "run" and not arguments.no_plots:
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib import pyplot
        title = f"{rows[0]['scenario']} ({rows[0]['network_fidelity']})"
        if study in ("strong-scaling", "weak-scaling"):
            written += plot_scaling(pyplot, directory, rows, study, title)
        for metric in metrics:
            written.append(plot_metric(pyplot, directory, rows, study, metric, parameters, title))
    print(f"collect: {len(rows)} runs; wrote {', '.join(written)} in {directory}")


def main():
    parser = argparse.ArgumentParser(
        prog="jobs/collect", description="Gather a rackscale study's HDF5 results into runs.csv and plots.")
    parser.add_argument("results_dir", metavar="RESULTS_DIR", help="a study's results directory (results/JOBID)")
    parser.add_argument("--study", help=f"one of {', '.join(STUDIES)} (default: the study file the jobs wrote)")
    parser.add_argument("--metric", action="append", default=[], metavar="/GROUP@ATTRIBUTE",
                        help="an attribute to tabulate and plot, such as /traffic@line_rate_fraction (repeatable)")
    parser.add_argument("--no-plots", action="store_true", help="write runs.csv only")
    arguments = parser.parse_args()  # exits with 2 on a bad option, like the rest of rackscale
    try:
        collect(arguments)
    except BadInput as error:
        print(f"jobs/collect: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
