#!/usr/bin/env python3
"""`rackscale search --output FILE` and `--resume` (docs/search.md).

usage: search_resume.py MPIRUN RACKSCALE CONFIG WORKDIR

1. A search with --output writes its journal: every estimated candidate and every finalist.
2. The journal cut short as an interrupted search leaves it (the first estimates only, no finalist),
   then --resume: the same ranked result (JSON, but the wall times), with the estimates read back.
3. Errors, exit 2, the file named and left as it was: an existing --output without --resume; --resume of
   a file that is not JSON; of another search's journal (another space); --resume without --output.
"""
import json
import os
import subprocess
import sys

mpirun, rackscale, config, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
journal = os.path.join(work, "journal.json")
for f in os.listdir(work):
    os.remove(os.path.join(work, f))
space = "tensor=1,2,4 pipeline=1,2 virtual=1,2 context=1,2 micro_batch=1,2 zero=1,3 recompute=selective"
base = [mpirun, "-np", "2", rackscale, "search", config, "--space", space, "--simulate", "2",
        "--fidelity", "analytical", "--top", "6", "--json", "--quiet", "--output", journal]


def run(args, expect):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit(f"exit {p.returncode}, expected {expect}: {' '.join(args)}\n{p.stdout}\n{p.stderr}")
    return p


def result(p):
    j = json.loads(p.stdout.strip().splitlines()[-1])
    del j["seconds"]
    return j, j.pop("estimates_resumed")


first, none = result(run(base, 0))
assert none == 0, none
written = json.load(open(journal))
assert written["format"] == "rackscale-search-journal", written.keys()
assert len(written["simulated"]) == 2, written["simulated"]
assert len(written["estimated"]) == first["estimated"] + 0, (len(written["estimated"]), first["estimated"])

# 2. Cut short: the first third of the estimates, no finalist.
cut = dict(written)
cut["estimated"] = written["estimated"][: len(written["estimated"]) // 3]
cut["simulated"] = []
json.dump(cut, open(journal, "w"))
p = run(base + ["--resume"], 0)
again, read_back = result(p)
assert read_back == len(cut["estimated"]), f"{read_back} estimates read back, expected {len(cut['estimated'])}"
if again != first:
    sys.exit(f"resumed result differs:\n{json.dumps(again)}\nfirst:\n{json.dumps(first)}")
resumed = json.load(open(journal))
assert len(resumed["estimated"]) == len(written["estimated"]), "the resumed journal is not complete"
assert len(resumed["simulated"]) == 2
print(f"resumed from {len(cut['estimated'])} of {len(written['estimated'])} estimates: the same result")

# 3. Errors.
before = open(journal).read()
p = run(base, 2)
assert "journal.json: the file exists" in p.stderr and "--resume" in p.stderr, p.stderr
assert open(journal).read() == before, "an existing journal was overwritten"

p = run(base[:-2] + ["--resume"], 2)
assert p.stderr.startswith("--resume: needs --output FILE"), p.stderr

other = base.copy()
other[other.index(space)] = space.replace("zero=1,3", "zero=1")
p = run(other + ["--resume"], 2)
assert f"--resume: {journal}: the journal is of another search: space" in p.stderr, p.stderr
assert open(journal).read() == before, "another search's journal was overwritten"

bad = os.path.join(work, "bad.json")
open(bad, "w").write('{"format": "rackscale-search-journal", "version": 1, "search": {')
p = run(base[:-1] + [bad, "--resume"], 2)
assert f"--resume: {bad}: not JSON at byte" in p.stderr, p.stderr

missing = os.path.join(work, "missing.json")
p = run(base[:-1] + [missing, "--resume"], 2)
assert f"--resume: {missing}: cannot be read" in p.stderr, p.stderr
print("journal errors name the file, exit 2, and leave it as it was")
