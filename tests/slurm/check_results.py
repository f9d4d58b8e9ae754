#!/usr/bin/python3
"""Checks what the job scripts wrote (tests/slurm/test-jobs.sh under Slurm, test-local.sh with
jobs/submit --local), against values worked out from the configs rather than taken from another run:

  check_results.py [run=DIR] [strong=DIR] [weak=DIR] [sweep=DIR]

each the results directory of that study as the tests submit it (the sweep is tests/slurm/sweep.txt).
The runs are configs/examples/fat-tree-128.yaml: 16 nodes x 8 devices, permutation traffic, one
message of workload.bytes (1 MiB) per device, so 128 messages and 128 x bytes delivered."""

import csv
import json
import math
import os
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
from matplotlib import image  # noqa: E402

MIB = 1024 * 1024
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def close(a, b, tolerance=1e-5):
    return math.isclose(float(a), float(b), rel_tol=tolerance)


def attributes(path, group="/"):
    with h5py.File(path, "r") as results:
        return {key: (value.decode() if isinstance(value, bytes) else value)
                for key, value in results[group].attrs.items()}


def overrides(path):
    with open(path, encoding="utf-8") as lines:
        return [line.rstrip("\n") for line in lines if line.strip()]


def rows(directory):
    with open(os.path.join(directory, "runs.csv"), newline="", encoding="utf-8") as table:
        return list(csv.DictReader(table))


def check_png(directory, name):
    path = os.path.join(directory, name)
    if check(os.path.exists(path), f"{path}: missing"):
        with open(path, "rb") as png:
            check(png.read(8) == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG file")
        height, width = image.imread(path).shape[:2]
        check(height >= 200 and width >= 300, f"{path}: {width}x{height} pixels, too small for a plot")


def check_run(directory):
    path = os.path.join(directory, "run.h5")
    if not check(os.path.exists(path), f"{path}: missing"):
        return
    root, traffic = attributes(path), attributes(path, "/traffic")
    check(root["ranks"] == 2, f"{path}: ranks {root['ranks']}, expected 2 (jobs/submit run --ranks 2)")
    check(root["workload"] == "traffic" and root["scenario"] == "fat-tree-128", f"{path}: {root['scenario']}")
    check(root["network_fidelity"] == "analytical", f"{path}: fidelity {root['network_fidelity']}, expected the --set")
    check(traffic["messages_delivered"] == 128, f"{path}: {traffic['messages_delivered']} messages, expected 128")
    check(traffic["bytes_delivered"] == 128 * MIB, f"{path}: {traffic['bytes_delivered']} bytes, expected 128 MiB")
    with open(os.path.join(directory, "run.json"), encoding="utf-8") as summary:
        check(json.load(summary)["scenario"] == "fat-tree-128", "run.json: not the run's --json summary")
    check(overrides(os.path.join(directory, "run.overrides")) == [], "run.overrides: expected none")
    check(not os.path.exists(os.path.join(directory, "runs.csv")), "run: no collect job was asked for")


def check_columns(directory, metrics):
    """runs.csv starts with the --metric columns, in the order given, then the run's name."""
    with open(os.path.join(directory, "runs.csv"), newline="", encoding="utf-8") as table:
        header = next(csv.reader(table))
    check(header[:len(metrics) + 1] == metrics + ["run"],
          f"{directory}/runs.csv: columns {header}, expected {metrics} first, then run")


def check_scaling(directory, study, expected_overrides, metrics):
    """Rows in rank order, speedup and efficiency from the files' own wall times."""
    table = rows(directory)
    check([row["ranks"] for row in table] == ["1", "2"], f"{directory}/runs.csv: ranks {[r['ranks'] for r in table]}")
    wall = {}
    for row in table:
        ranks = int(row["ranks"])
        path = os.path.join(directory, f"ranks-{ranks}.h5")
        root = attributes(path)
        wall[ranks] = root["wall_s"]
        check(root["ranks"] == ranks, f"{path}: ranks {root['ranks']}")
        check(close(row["wall_s"], root["wall_s"]), f"{path}: runs.csv wall_s {row['wall_s']} vs {root['wall_s']}")
        check(close(row["events_per_s_per_rank"], root["events_per_s"] / ranks), f"{path}: events/s per rank")
        check(overrides(os.path.join(directory, f"ranks-{ranks}.overrides")) == expected_overrides(ranks),
              f"{path}: overrides {overrides(os.path.join(directory, f'ranks-{ranks}.overrides'))}")
        for key, value in metrics(ranks, path).items():
            check(row[key] == str(value) if isinstance(value, int) else close(row[key], value),
                  f"{directory}/runs.csv ranks {ranks}: {key} = {row[key]}, expected {value}")
    # strong: S(n) = n0 T(n0) / T(n); weak: S(n) = n T(n0) / T(n); E(n) = S(n) / n.
    for row in table:
        n = int(row["ranks"])
        speedup = (1 if study == "strong-scaling" else n) * wall[1] / wall[n]
        check(close(row["speedup"], speedup), f"{directory}: speedup at {n} ranks {row['speedup']}, expected {speedup}")
        check(close(row["efficiency"], speedup / n), f"{directory}: efficiency at {n} ranks {row['efficiency']}")
    for name in ("speedup.png", "efficiency.png", "events-per-rank.png"):
        check_png(directory, name)
    return table


def check_strong(directory):
    # --metric /traffic@messages_delivered --metric /traffic@completion_p99_ps: the time in seconds.
    check_columns(directory, ["traffic_messages_delivered", "traffic_completion_p99_s"])
    strong = check_scaling(directory, "strong-scaling", lambda n: [],
                           lambda n, path: {"traffic_messages_delivered": 128,
                                            "traffic_completion_p99_s":
                                                attributes(path, "/traffic")["completion_p99_ps"] * 1e-12})
    check(strong[0]["traffic_completion_p99_s"] == strong[1]["traffic_completion_p99_s"],
          "strong scaling: p99 completion differs between 1 and 2 ranks")
    check_png(directory, "metric-traffic_messages_delivered.png")
    check_png(directory, "metric-traffic_completion_p99_s.png")


def check_weak(directory):
    # --per-rank cluster.nodes=8: 8 nodes x 8 devices per rank, one message each.
    check_columns(directory, ["traffic_messages_planned"])
    weak = check_scaling(directory, "weak-scaling", lambda n: [f"cluster.nodes={8 * n}"],
                         lambda n, path: {"cluster.nodes": 8 * n, "traffic_messages_planned": 64 * n})
    check(len(weak) == 2, "weak scaling: expected 2 runs")
    check_png(directory, "metric-traffic_messages_planned.png")


def check_sweep(directory):
    # tests/slurm/sweep.txt: bytes 64KiB | 256KiB, routing ecmp | spray; the last axis changes fastest.
    sweep_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sweep.txt")
    check_columns(directory, ["traffic_bytes_delivered", "traffic_line_rate_fraction"])
    grid = [("64KiB", "ecmp"), ("64KiB", "spray"), ("256KiB", "ecmp"), ("256KiB", "spray")]
    table = rows(directory)
    check([row["run"] for row in table] == [f"point-{k}" for k in range(4)], f"sweep: runs {[r['run'] for r in table]}")
    for k, (size, routing) in enumerate(grid):
        path = os.path.join(directory, f"point-{k}.h5")
        resolved = attributes(path)["config"]
        check(f"routing: {routing}" in resolved, f"{path}: the resolved config has no 'routing: {routing}'")
        check(overrides(os.path.join(directory, f"point-{k}.overrides")) ==
              [f"workload.bytes={size}", f"network.routing={routing}"], f"point-{k}.overrides")
        expected_bytes = 128 * (64 if size == "64KiB" else 256) * 1024
        check(attributes(path, "/traffic")["bytes_delivered"] == expected_bytes, f"{path}: bytes delivered")
        if k < len(table):
            row = table[k]
            check((row["workload.bytes"], row["network.routing"]) == (size, routing), f"sweep runs.csv row {k}")
            check(row["traffic_bytes_delivered"] == str(expected_bytes), f"sweep row {k}: bytes_delivered")
            check(0 < float(row["traffic_line_rate_fraction"]) <= 1, f"sweep row {k}: line_rate_fraction")
    with open(sweep_file, encoding="utf-8") as given, open(os.path.join(directory, "sweep.txt"), encoding="utf-8") as kept:
        check(given.read() == kept.read(), "sweep: sweep.txt in the results is not the sweep file")
    check_png(directory, "metric-traffic_bytes_delivered.png")
    check_png(directory, "metric-traffic_line_rate_fraction.png")
    check(not os.path.exists(os.path.join(directory, "speedup.png")), "sweep: a speedup plot for a sweep")


CHECKS = {"run": check_run, "strong": check_strong, "weak": check_weak, "sweep": check_sweep}


def main():
    for argument in sys.argv[1:]:
        study, _, directory = argument.partition("=")
        if study not in CHECKS or not directory:
            print(f"check_results: expected STUDY=DIR with STUDY one of {', '.join(CHECKS)}, found '{argument}'",
                  file=sys.stderr)
            return 2
        CHECKS[study](directory)

    for failure in failures:
        print(f"check_results: {failure}", file=sys.stderr)
    print(f"check_results: {'FAILED' if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
