#!/usr/bin/python3
"""Draw the Pareto front of a cluster search (`rackscale search --cluster-space ... --json`, docs/search.md).

usage: plot_pareto.py SEARCH_JSON [--out DIR]

SEARCH_JSON is the last line of the command's stdout (the whole stdout is accepted too: its last line is
read). Writes into DIR (default: the current directory):
  pareto_cost.png    each cluster's best layout: time to train (days) against the run's cost (USD), the
                     clusters on the front joined and labelled
  pareto_carbon.png  the same against carbon (t CO2e)
Exit codes: 0 figures written; 2 the file is missing, not JSON, or not a cluster search's result.
Uses Debian's python3-matplotlib.
"""
import argparse
import json
import os
import sys


def load(path):
    try:
        text = open(path, encoding="utf-8").read().strip()
    except OSError as e:
        sys.exit(f"plot_pareto.py: {path}: {e.strerror}")
    try:
        doc = json.loads(text.splitlines()[-1] if text else "")
    except json.JSONDecodeError as e:
        sys.stderr.write(f"plot_pareto.py: {path}: not JSON ({e.msg}); expected `rackscale search --cluster-space ... --json`\n")
        sys.exit(2)
    if not isinstance(doc, dict) or "clusters" not in doc:
        sys.stderr.write(f"plot_pareto.py: {path}: no \"clusters\": not a cluster search's result\n")
        sys.exit(2)
    return doc


def points(doc, figure):
    rows = []
    for c in doc["clusters"]:
        best = c.get("best")
        if not best:
            continue
        figures = best.get("simulated") or best["estimate"]
        rows.append((figures["time_to_train_s"] / 86400.0, figures[figure], c["cluster"],
                     c["pareto_time_cost" if figure == "cost_usd" else "pareto_time_carbon"]))
    return rows


def draw(rows, ylabel, scale, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5.5))
    ax.scatter([r[0] for r in rows if not r[3]], [r[1] / scale for r in rows if not r[3]], color="0.6",
               label="dominated")
    front = sorted((r for r in rows if r[3]), key=lambda r: (r[0], r[1]))
    ax.plot([r[0] for r in front], [r[1] / scale for r in front], "o-", color="C3", label="Pareto front")
    for r in front:
        ax.annotate(r[2].replace(" ", "\n"), (r[0], r[1] / scale), fontsize=6, xytext=(4, 4),
                    textcoords="offset points")
    ax.set_xlabel("time to train (days)")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("search_json")
    parser.add_argument("--out", default=".")
    args = parser.parse_args()
    doc = load(args.search_json)
    os.makedirs(args.out, exist_ok=True)
    for figure, ylabel, scale, name in (("cost_usd", "cost of the run (million USD)", 1e6, "pareto_cost.png"),
                                        ("carbon_kgco2e", "carbon of the run (t CO2e)", 1e3, "pareto_carbon.png")):
        rows = points(doc, figure)
        if not rows:
            sys.stderr.write(f"plot_pareto.py: {args.search_json}: no cluster has a layout that fits\n")
            sys.exit(2)
        path = os.path.join(args.out, name)
        draw(rows, ylabel, scale, path)
        print(path)


if __name__ == "__main__":
    main()
