#!/usr/bin/env python3
"""Every training config's energy and TCO, one markdown row each, for docs/tco.md's before/after table.

    python3 bench/energy_tco_table.py path/to/rackscale [config ...]

Runs `rackscale run CONFIG --json` (one rank, at most $TABLE_TIMEOUT_S seconds each, default 300; the figures do not depend on the rank count) and prints:
switches' and optics' share of IT energy per iteration, network capex and its share of the
accelerators', whole-run cost and carbon. With $TABLE_JSON_DIR set, each run's --json line is also
written there as CONFIG.json (for its iteration time and the rest).
"""
import glob
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
binary = sys.argv[1]
timeout = float(os.environ.get("TABLE_TIMEOUT_S", "300"))
configs = sys.argv[2:] or sorted(glob.glob(os.path.join(here, "..", "configs", "training", "*.yaml")))
print("| config | switches, % of IT energy | optics, % | network capex | network / accelerators | whole-run cost | carbon (t) |")
print("|---|---|---|---|---|---|---|")
for config in configs:
    name = os.path.basename(config)[:-5]
    try:
        out = subprocess.run([binary, "run", config, "--json"], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        print(f"| {name} | not run: over {timeout} s | | | | | |")
        continue
    if out.returncode != 0:
        print(f"| {name} | failed: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else out.returncode} | | | | | |")
        continue
    line = out.stdout.strip().splitlines()[-1]
    if os.environ.get("TABLE_JSON_DIR"):
        with open(os.path.join(os.environ["TABLE_JSON_DIR"], name + ".json"), "w") as f:
            f.write(line + "\n")
    j = json.loads(line)
    e = j["energy"]
    total = e["per_iteration_total_J"]
    switches = e["per_iteration_switches_J"] / total * 100
    optics = e.get("per_iteration_optics_J", 0.0) / total * 100
    t = j["tco"]
    net, acc = t["network_capex_usd"], t["accelerators_capex_usd"]
    w = t["whole_run"]
    print(f"| {name} | {switches:.1f} | {optics:.1f} | ${net / 1e6:.2f} M | {net / acc * 100:.1f} % | "
          f"${w['cost_usd'] / 1e3:.1f} K | {w['carbon_kgco2e'] / 1e3:.2f} |")
    sys.stdout.flush()
