#!/usr/bin/env python3
"""`rackscale run --json` of a training job with variability inside the iteration (docs/goodput.md) on 1
and on 2 ranks, and on 2 with another partition method: every figure the same but the wall times and the
partition's own; the variability object present, the slowdown over 1, the named devices and links in range.

    variability_check.py MPIRUN RACKSCALE CONFIG
"""
import json
import subprocess
import sys

VARIABILITY = ("workload.variability={compute: {distribution: lognormal, sigma: 0.02, "
               "slow: [{device: 5, factor: 1.2}]}, jitter: {distribution: exponential, mean: 5us}}")
# One iteration, analytical network with the collectives as messages (so the degraded cable carries
# them): chunk fidelity on 2 ranks is too slow for the test's limit on a loaded machine.
CHEAP = ("--set", "network.fidelity=analytical", "--set", "network.collectives=messages", "--set",
         "workload.iterations=1")
# Fields that describe how the run was carried out, not what it simulated.
RUN_FIELDS = ("setup_s", "partition", "engine")


def run(mpirun, rackscale, ranks, config, extra):
    done = subprocess.run([mpirun, "-np", str(ranks), rackscale, "run", config, "--set", VARIABILITY,
                           "--set", "cluster.degraded_links=[{link: 3, fraction: 0.5}]", *CHEAP, *extra, "--json"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{ranks} rank(s) {extra}: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    j = json.loads(done.stdout.strip().splitlines()[-1])
    for key in RUN_FIELDS:
        j.pop(key, None)
    return j


def main():
    mpirun, rackscale, config = sys.argv[1:4]
    one = run(mpirun, rackscale, 1, config, [])
    for extra in ([], ["--partition", "block"]):
        other = run(mpirun, rackscale, 2, config, extra)
        if one != other:
            diff = [k for k in one if one[k] != other.get(k)]
            sys.exit(f"1 rank and 2 ranks {extra} differ in {diff}")
    v = one.get("variability")
    if v is None:
        sys.exit("no variability object in the --json line")
    if not v["slowdown"] > 1 or v["perfect_iteration_time_ps"] <= 0:
        sys.exit(f"slowdown {v['slowdown']} against {v['perfect_iteration_time_ps']} ps")
    if not 0 <= v["critical_device"] < one["devices"] or not 0 <= v["slowest_compute_device"] < one["devices"]:
        sys.exit(f"devices out of range: {v}")
    if v["degraded_link_0_port"] != 3 or v["degraded_link_0_fraction"] != 0.5:
        sys.exit(f"degraded link: {v}")
    stats = one["statistics"]
    for name in ("critical_device", "critical_last_device", "critical_busiest_link", "perfect_iteration_ps",
                 "degraded_link_busy_ps"):
        if name not in stats:
            sys.exit(f"statistic {name} missing from {sorted(stats)}")
    print(f"slowdown {v['slowdown']:.4f}; critical device {v['critical_device']}, slowest {v['slowest_compute_device']}, "
          f"busiest link {v['busiest_link_port']}")


if __name__ == "__main__":
    main()
