#!/usr/bin/python3
"""Projects rackscale's strong scaling to rank counts this machine cannot run (docs/scaling.md).

Reads the runs that bench/scaling.sh kept (one --json line per rank count, at least 1 and 2 ranks) and
the partition that `rackscale partition` computes for each projected rank count (no simulation), and
models the event loop of one rank as

    T(P) = I(P) x [ E / P x t_event  +  E x f(P) / P x t_cross ]  +  W(P) x c(P)

    E        events of the run (the same for every P: the simulation is deterministic)
    t_event  event cost on one rank: process time / events of the 1-rank run
    t_cross  extra processing per cross-rank event: (sum of the ranks' process time at P_t - 1-rank
             process time) / cross-rank events at P_t, the largest measured rank count with a core
             per rank (clamped at 0)
    f(P)     cross-rank fraction of events: measured where a run exists; otherwise
             f(P_m) x (1 - 1/P) / (1 - 1/P_m), what round-robin placement gives when a message's far
             end is equally likely to be on any rank (an ASSUMPTION; check it on the measured points)
    I(P)     load imbalance: most devices on one rank over the mean (from the partition; devices hold
             nearly all the events of a training run in the analytical network)
    W(P)     windows: W(P_m) x lookahead(P_m) / lookahead(P) (lookahead from the partition)
    c(P)     cost of one window's exchange: a + b x log2(P); `a` defaults to the measured 2-rank cost,
             `b` is given (--window-cost-per-doubling-us), since it is a property of the target network.

    sh bench/scaling.sh strong CONFIG "1 2 4 8"
    bench/project_scaling.py bench-results/scaling-NAME-strong CONFIG --ranks 64,128,256,512,1024
"""
import argparse
import json
import math
import os
import subprocess
import sys


def fail(message):
    print(f"project_scaling.py: {message}", file=sys.stderr)
    sys.exit(2)


def load_runs(directory):
    runs = {}
    if not os.path.isdir(directory):
        fail(f"{directory}: not a directory (run bench/scaling.sh first)")
    for name in os.listdir(directory):
        if name.startswith("ranks-") and name.endswith(".json"):
            with open(os.path.join(directory, name)) as f:
                runs[int(name[6:-5])] = json.load(f)
    if 1 not in runs or len(runs) < 2:
        fail(f"{directory}: need the 1-rank run and at least one multi-rank run, found ranks {sorted(runs)}")
    return runs


def partition(rackscale, config, ranks, method):
    out = subprocess.run([rackscale, "partition", config, "--ranks", str(ranks), "--method", method, "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def imbalance(part):
    devices = [r["devices"] for r in part["per_rank"]]
    return max(devices) / (sum(devices) / len(devices))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("measured", help="directory of bench/scaling.sh strong results")
    parser.add_argument("config", help="the scenario those runs simulated")
    parser.add_argument("--ranks", default="64,128,256,512,1024", help="rank counts to project (comma-separated)")
    parser.add_argument("--method", default="round_robin", help="partition method of the runs and projection")
    parser.add_argument("--window-cost-us", type=float, default=None,
                        help="a: window exchange cost at 2 ranks, microseconds (default: measured)")
    parser.add_argument("--window-cost-per-doubling-us", type=float, default=2.0,
                        help="b: added window cost per doubling of ranks, microseconds (ASSUMPTION, default 2)")
    parser.add_argument("--rackscale", default=os.path.join(os.path.dirname(__file__), "..", "build", "rackscale"))
    args = parser.parse_args()
    try:
        targets = [int(r) for r in args.ranks.split(",")]
    except ValueError:
        fail(f"--ranks: expected comma-separated integers, found '{args.ranks}'")

    runs = load_runs(args.measured)
    one = runs[1]["engine"]
    events = one["events"]
    t_event = one["process_s"] / events
    measured = sorted(p for p in runs if p > 1)
    pm = measured[-1]
    em = runs[pm]["engine"]
    # Processing costs come from runs that had a core per rank; oversubscribed runs still count events
    # and cross-rank events exactly (the simulation is deterministic), but their times are not costs.
    timed = [p for p in measured if p <= os.cpu_count()] or measured[:1]
    et = runs[timed[-1]]["engine"]
    f_m = em["remote_events"] / events
    extra = sum(r["process_s"] for r in et["per_rank"]) - one["process_s"]
    t_cross = max(0.0, extra / et["remote_events"]) if et["remote_events"] else 0.0
    two = runs[measured[0]]["engine"]
    a_measured = min(r["sync_s"] for r in two["per_rank"]) / two["windows"] if two["windows"] > 1 else 0.0
    a = args.window_cost_us * 1e-6 if args.window_cost_us is not None else a_measured
    b = args.window_cost_per_doubling_us * 1e-6
    part_m = partition(args.rackscale, args.config, pm, args.method)
    windows_m, lookahead_m = em["windows"], part_m["lookahead_ps"]

    print(f"scenario {runs[1]['scenario']}: {events:,} events; 1 rank {one['wall_s']:.2f} s "
          f"(t_event {t_event * 1e9:.0f} ns); t_cross {t_cross * 1e9:.0f} ns from {timed[-1]} ranks; "
          f"window cost a = {a * 1e6:.1f} us (measured at {measured[0]} ranks: {a_measured * 1e6:.1f} us), "
          f"b = {b * 1e6:.1f} us per doubling")
    print("%-6s %10s %10s %10s %10s %12s %10s %9s %11s" % ("ranks", "imbalance", "cross", "windows", "compute s",
                                                           "windows s", "total s", "speedup", "efficiency"))
    for p in sorted(set(measured + targets)):
        part = partition(args.rackscale, args.config, p, args.method)
        f = runs[p]["engine"]["remote_events"] / events if p in runs else f_m * (1 - 1 / p) / (1 - 1 / pm)
        windows = windows_m * lookahead_m / part["lookahead_ps"]
        compute = imbalance(part) * (events / p * t_event + events * f / p * t_cross)
        sync = windows * (a + b * math.log2(p / 2) if p > 2 else a)
        total = compute + sync
        label = "%d%s" % (p, " (measured %.2f s)" % runs[p]["engine"]["wall_s"] if p in runs else "")
        print("%-6s %10.3f %9.1f%% %10d %10.2f %12.2f %10.2f %9.1f %10.0f%%" % (
            label, imbalance(part), 100 * f, windows, compute, sync, total, one["wall_s"] / total,
            100 * one["wall_s"] / total / p))


if __name__ == "__main__":
    main()
