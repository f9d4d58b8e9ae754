#!/usr/bin/env python3
"""`rackscale run --json` of a training config (docs/goodput.md, "In rackscale run"): the goodput estimate
the same on 1 and on 2 ranks; its parts adding up (time = ideal + redone work + recoveries + checkpoints,
the classes' interruptions and downtime to the run's); its ideal time the TCO's whole run; the effective
run dearer than the ideal one; and `goodput.enabled: false` leaving it out (JSON null, no summary
section) with every other figure as it was.

    run_goodput_check.py MPIRUN RACKSCALE CONFIG [--set k=v]...
"""
import json
import subprocess
import sys

TIMING = ("engine", "setup_s")  # wall-clock figures: differ between any two runs


def run(mpirun, rackscale, ranks, args):
    done = subprocess.run([mpirun, "-np", str(ranks), rackscale, "run", *args, "--json"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{ranks} rank(s), {args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done.stdout, json.loads(done.stdout.strip().splitlines()[-1])


def close(a, b, what, rel=1e-9):
    if abs(a - b) > rel * max(abs(a), abs(b)):
        sys.exit(f"{what}: {a} against {b}")


def main():
    mpirun, rackscale, config = sys.argv[1:4]
    given = [config, *sys.argv[4:]]
    text_one, one = run(mpirun, rackscale, 1, given)
    text_two, two = run(mpirun, rackscale, 2, given)
    g = one["goodput"]
    if g is None:
        sys.exit("no goodput in the JSON of a training run with a tco")
    if g != two["goodput"]:
        sys.exit(f"1 and 2 ranks differ in {[k for k in g if g[k] != two['goodput'].get(k)]}")
    close(g["time_s"], g["ideal_time_s"] + g["lost_s"] + g["down_s"] + g["checkpoint_s"], "time against its parts")
    close(sum(c["interruptions"] for c in g["classes"]), g["interruptions"], "classes' interruptions")
    close(sum(c["down_s"] for c in g["classes"]), g["down_s"], "classes' downtime")
    close(g["ideal_time_s"], one["tco"]["whole_run"]["time_s"], "ideal time against the TCO's whole run")
    close(g["goodput"], g["ideal_time_s"] / g["time_s"], "goodput")
    if not (0 < g["goodput"] < 1 and g["interruptions"] > 0):
        sys.exit(f"goodput {g['goodput']}, {g['interruptions']} interruptions")
    if not g["effective_tco"]["whole_run"]["cost_usd"] > one["tco"]["whole_run"]["cost_usd"]:
        sys.exit("the effective run is not dearer than the ideal one")
    if "goodput (expected, closed form)" not in text_one:
        sys.exit(f"no goodput section in the summary:\n{text_one}")

    text_off, off = run(mpirun, rackscale, 2, given + ["--set", "goodput.enabled=false"])
    if off["goodput"] is not None or "goodput (expected" in text_off:
        sys.exit("goodput.enabled: false still shows the estimate")
    for j in (two, off):
        for key in TIMING + ("goodput",):
            j.pop(key)
    if two != off:
        sys.exit(f"goodput.enabled changes other figures: {[k for k in two if two[k] != off.get(k)]}")
    print(f"goodput {g['goodput']:.6f}: {g['time_s'] / 86400:.4f} days against {g['ideal_time_s'] / 86400:.4f}, "
          f"{g['interruptions']:.2f} interruptions; identical on 1 and 2 ranks")


if __name__ == "__main__":
    main()
