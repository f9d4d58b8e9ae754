#!/usr/bin/env python3
"""`rackscale goodput --json` on 1 and on 2 ranks (docs/goodput.md): every figure the same but the wall
time; the classes' lost and down times adding up to the run's (over 256 replicas of 40 days the faulty
GPUs' downtime passes 2^64 ps, which a first version's sum over replicas overflowed); the effective run
longer and dearer than the ideal one; and the simulated iteration (no --iteration-time) used when the workload is training.

    goodput_check.py MPIRUN RACKSCALE CONFIG
"""
import json
import subprocess
import sys


def run(mpirun, rackscale, ranks, args):
    done = subprocess.run([mpirun, "-np", str(ranks), rackscale, "goodput", *args, "--json"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{ranks} rank(s), {args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    mpirun, rackscale, config = sys.argv[1:4]
    given = [config, "--iteration-time", "2s", "--days", "40", "--replicas", "256", "--seed", "3",
             "--set", "cluster.nodes=2048", "--set", "workload.parallel.global_batch=8192"]  # 16,384 devices
    one, two = run(mpirun, rackscale, 1, given), run(mpirun, rackscale, 2, given)
    for j in (one, two):
        j.pop("wall_s")
    if one != two:
        diff = [k for k in one if one[k] != two.get(k)]
        sys.exit(f"1 and 2 ranks differ in {diff}")
    j = one
    for key, total in (("lost_s", "lost_s"), ("down_s", "down_s")):
        parts = sum(c[total] for c in j["classes"])
        if abs(parts - j[key]) > 1e-9 * j[key]:
            sys.exit(f"classes' {total} add up to {parts}, the run's is {j[key]}")
    if not (j["time_s"]["mean"] > j["ideal_time_s"] and 0 < j["goodput"]["mean"] < 1):
        sys.exit(f"effective {j['time_s']} against ideal {j['ideal_time_s']}, goodput {j['goodput']}")
    if not j["cost_usd"]["mean"] > j["ideal_tco"]["whole_run"]["cost_usd"]:
        sys.exit(f"effective cost {j['cost_usd']} not above the ideal {j['ideal_tco']['whole_run']['cost_usd']}")
    if not j["time_s"]["p10"] <= j["time_s"]["p50"] <= j["time_s"]["p90"]:
        sys.exit(f"percentiles out of order: {j['time_s']}")
    simulated = run(mpirun, rackscale, 2, [config, "--days", "1", "--replicas", "8"])
    if not simulated["iteration_simulated"] or simulated["iteration_time_ps"] <= 0:
        sys.exit(f"no simulated iteration: {simulated['iteration_time_ps']}")
    print(f"goodput {j['goodput']['mean']:.4f}, {j['time_s']['mean'] / 86400:.3f} days against "
          f"{j['ideal_time_s'] / 86400:.3f}; simulated iteration {simulated['iteration_time_ps']} ps")


if __name__ == "__main__":
    main()
