#!/usr/bin/env python3
"""The memory estimate against the measured peak (docs/reliability.md, "Memory"): `rackscale validate
--ranks N --json` gives the estimated peak per rank, `rackscale run --json` the peak resident set
size of every rank (getrusage, at the end of the run); the larger rank's must be within FACTOR of the
estimate, either way.

    memory_estimate_check.py FACTOR TIMED_MPIRUN RACKSCALE RANKS CONFIG [--set k=v ...]
"""
import json
import subprocess
import sys


def last_json(command):
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"`{' '.join(command)}` exited with {done.returncode}:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    factor, mpirun, rackscale, ranks, config = sys.argv[1:6]
    factor = float(factor)
    extra = sys.argv[6:]
    estimate = last_json([rackscale, "validate", config, "--ranks", ranks, "--json", *extra])["memory_estimate"]
    run = last_json([mpirun, "-np", ranks, rackscale, "run", config, "--json", "--progress", "off", *extra])
    measured = max(r["peak_memory_bytes"] for r in run["engine"]["per_rank"])
    estimated = estimate["per_rank_bytes"]
    ratio = measured / estimated
    mib = 2 ** 20
    print(f"{config} {' '.join(extra)} on {ranks} rank(s): estimated {estimated / mib:.1f} MiB per rank, "
          f"measured {measured / mib:.1f} MiB (larger rank), measured / estimated {ratio:.2f}")
    for part in estimate["parts"]:
        print(f"  {part['bytes'] / mib:8.1f} MiB  {part['what']}")
    if not 1 / factor <= ratio <= factor:
        sys.exit(f"measured / estimated = {ratio:.2f}, outside [1/{factor}, {factor}]")


main()
