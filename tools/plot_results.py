#!/usr/bin/python3
"""Draw the figures of a rackscale results file (docs/output.md) into PNG files.

What is drawn depends on what the file holds:
  stage_breakdown.png      training runs: mean time per device per iteration of each pipeline stage,
                           stacked by component (forward, backward, ..., pipeline bubble, idle), in s, ms,
                           us or ns, whichever suits the largest stage
  link_utilization.png     training and traffic runs: every port's utilization, sorted from the
                           busiest down, one curve per link class (scale_up, nic, leaf_spine, ...)
  tco_breakdown.png        files with a /tco group: the whole run's cost (USD) and carbon (CO2e, in g, kg,
                           t or kt, whichever suits the largest item) by item; items whose carbon the
                           model does not count are marked so
  collective_busbw.png     collective sweeps: bus bandwidth (GB/s) against message size

Exit codes: 0 figures written; 2 the file is missing, not HDF5, not a rackscale results file, of
another format version than this script reads, or holds nothing this script draws.
Uses Debian's python3-h5py and python3-matplotlib (scripts/install-deps.sh).
"""
import argparse
import math
import os
import sys

# The results format this script reads (docs/output.md): version 2 renamed figures, so version 1 files
# are refused rather than misread.
SUPPORTED_FORMAT_VERSION = 2

# Units an axis can be drawn in, from the largest down: (name, size in the stored unit).
TIME_UNITS_PS = [("s", 1e12), ("ms", 1e9), ("us", 1e6), ("ns", 1e3), ("ps", 1.0)]
CARBON_UNITS_KG = [("kt", 1e6), ("t", 1e3), ("kg", 1.0), ("g", 1e-3)]
COUNT_PREFIXES = [("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)]

# The time breakdown's components as /stages stores them, in stacking order, with their labels.
COMPONENTS = [
    ("forward_ps", "forward"),
    ("backward_ps", "backward"),
    ("recompute_ps", "recomputation"),
    ("optimizer_ps", "optimizer"),
    ("other_compute_ps", "other compute"),
    ("exposed_communication_ps", "exposed communication"),
    ("pipeline_bubble_ps", "pipeline bubble"),
    ("idle_ps", "idle"),
]


class BadInput(Exception):
    """The file cannot be drawn from: the message says why, naming the file."""


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def open_results(path, h5py):
    if not os.path.isfile(path):
        raise BadInput(f"{path}: no such file")
    if not h5py.is_hdf5(path):
        raise BadInput(f"{path}: not an HDF5 file (expected a rackscale results file, docs/output.md)")
    f = h5py.File(path, "r")
    found = text(f.attrs.get("format", "")) if "format" in f.attrs else None
    if found != "rackscale results":
        f.close()
        shown = "no 'format' attribute" if found is None else f"format '{found}'"
        raise BadInput(f"{path}: not a rackscale results file (expected the root attribute "
                       f"format = 'rackscale results', found {shown})")
    version = int(f.attrs.get("format_version", 0))
    if version != SUPPORTED_FORMAT_VERSION:
        f.close()
        newer_or_older = "newer" if version > SUPPORTED_FORMAT_VERSION else "older"
        raise BadInput(f"{path}: format_version {version} is {newer_or_older} than this script reads "
                       f"({SUPPORTED_FORMAT_VERSION}); use the tools/plot_results.py of the rackscale that wrote it")
    return f


def unit_for(largest, units):
    """The first (name, size) of `units`, largest first, that `largest` reaches; the last one otherwise."""
    for name, size in units:
        if abs(largest) >= size:
            return name, size
    return units[-1]


def four_figures(value):
    """Four significant figures in fixed notation, as the console summaries print numbers: 36.134 -> 36.13,
    167.44 -> 167.4, 0.000162 -> 0.000162, 16.0 -> 16."""
    if not math.isfinite(value):
        return "-"
    if value == 0:
        return "0"
    exponent = int(math.floor(math.log10(abs(value))))
    text = f"{value:.{max(0, 3 - exponent)}f}"
    if int(math.floor(math.log10(abs(float(text))))) > exponent:  # 9.99951 rounds to 10.000: one figure less
        text = f"{value:.{max(0, 2 - exponent)}f}"
    if "." in text and abs(float(text) - value) <= 1e-12 * abs(value):
        text = text.rstrip("0").rstrip(".")
    return text


def usd_text(usd):
    """$167.4, $4.569 M: dollars with the counts' prefixes (K, M, B, T)."""
    name, size = unit_for(usd, COUNT_PREFIXES + [("", 1.0)])
    return f"${four_figures(usd / size)}" + (f" {name}" if name else "")


def title_of(f):
    return f"{text(f.attrs.get('scenario', ''))} ({text(f.attrs.get('workload', ''))})"


def plot_stage_breakdown(f, plt, out):
    stages = f["stages"]
    count = stages[COMPONENTS[0][0]].shape[0]
    x = list(range(count))
    totals = [sum(float(stages[name][i]) for name, _ in COMPONENTS) for i in range(count)]
    unit, size = unit_for(max(totals, default=0.0), TIME_UNITS_PS)
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * count + 3), 4.5))
    bottom = [0.0] * count
    for name, label in COMPONENTS:
        values = [v / size for v in stages[name][:]]
        if not any(values):
            continue
        ax.bar(x, values, bottom=bottom, label=label)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_xlabel("pipeline stage")
    ax.set_ylabel(f"time per device per iteration ({unit})")
    ax.set_xticks(x)
    ax.set_title(f"time breakdown per stage: {title_of(f)}")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def plot_link_utilization(f, plt, out):
    links = f["links"]
    utilization = links["utilization"][:]
    classes = links["link_class"][:]
    names = [text(n) for n in links["link_class"].attrs["names"]]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    drawn = 0
    for index, name in enumerate(names):
        values = sorted((u for u, c in zip(utilization, classes) if c == index), reverse=True)
        if not values:
            continue
        rank = [100.0 * i / max(len(values) - 1, 1) for i in range(len(values))]
        ax.plot(rank, values, label=f"{name} ({len(values)} ports)")
        drawn += 1
    ax.set_xlabel("ports of the class, busiest first (%)")
    ax.set_ylabel("utilization (busy time / run time)")
    ax.set_title(f"link utilization: {title_of(f)}")
    if drawn:
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def plot_tco_breakdown(f, plt, out):
    breakdown = f["tco/breakdown"]
    items = [text(i) for i in breakdown["item"][:]]
    cost = breakdown["cost_usd"][:]
    # NaN: an item whose carbon the model does not count (not zero).
    carbon_kg = [float(c) for c in breakdown["carbon_kgco2e"][:]]
    counted = [not math.isnan(c) for c in carbon_kg]
    whole = f["tco/whole_run"].attrs
    total_kg = float(whole.get("carbon_kgco2e", 0))
    unit, size = unit_for(max([total_kg] + [c for c, k in zip(carbon_kg, counted) if k]), CARBON_UNITS_KG)
    carbon = [c / size if k else 0.0 for c, k in zip(carbon_kg, counted)]
    labels = [item if k else f"{item} (carbon not counted)" for item, k in zip(items, counted)]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, max(3.5, 0.4 * len(items) + 1.5)), sharey=True)
    y = list(range(len(items)))
    left.barh(y, cost, color="tab:blue")
    left.set_yticks(y)
    left.set_yticklabels(labels)
    left.invert_yaxis()
    left.set_xlabel("cost over the whole run (USD)")
    right.barh(y, carbon, color="tab:green")
    right.set_xlabel(f"carbon over the whole run ({unit} CO2e)")
    fig.suptitle(f"TCO: {title_of(f)}: {usd_text(float(whole.get('cost_usd', 0)))}, "
                 f"{four_figures(total_kg / size)} {unit} CO2e")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def plot_collective(f, plt, out):
    c = f["collective"]
    # Rows of 0 bytes (an all-gather's sizes below one element per rank, as nccl-tests prints them) have no
    # place on a log axis.
    rows = [(s, b / 1e9) for s, b in zip(c["size_bytes"][:], c["bus_bandwidth_Bps"][:]) if s > 0]
    sizes = [s for s, _ in rows]
    busbw = [b for _, b in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(sizes, busbw, marker="o")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("bus bandwidth (GB/s)")
    ax.set_title(f"{text(c.attrs.get('op', ''))} over {int(c.attrs.get('devices', 0))} devices: {title_of(f)}")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


PLOTS = [
    ("stages", "stage_breakdown.png", plot_stage_breakdown),
    ("links", "link_utilization.png", plot_link_utilization),
    ("tco", "tco_breakdown.png", plot_tco_breakdown),
    ("collective", "collective_busbw.png", plot_collective),
]


def main(argv):
    parser = argparse.ArgumentParser(
        prog="plot_results.py",
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="an HDF5 results file written by `rackscale run --output`")
    parser.add_argument("-o", "--output-dir", default=".",
                        help="directory for the PNG files (created if missing; default: the current one)")
    args = parser.parse_args(argv)

    import h5py
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    try:
        f = open_results(args.file, h5py)
    except BadInput as e:
        print(f"plot_results.py: {e}", file=sys.stderr)
        return 2
    with f:
        todo = [(name, draw) for group, name, draw in PLOTS if group in f]
        if not todo:
            print(f"plot_results.py: {args.file}: nothing to draw (no /stages, /links, /tco or /collective group)",
                  file=sys.stderr)
            return 2
        os.makedirs(args.output_dir, exist_ok=True)
        for name, draw in todo:
            out = os.path.join(args.output_dir, name)
            draw(f, plt, out)
            print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
