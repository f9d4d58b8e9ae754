#!/usr/bin/python3
"""Reads `rackscale run` of a collective sweep the way a parser of nccl-tests logs does, and checks it.

Runs the command on 1 and on 2 MPI ranks (the two outputs must be the same but for the wall-time line),
then from the 2-rank output:
- every line is a comment ('#') or a table row of 13 fields that nccl-tests' own printf formats reproduce
  character for character (fixed columns);
- the "# nThread" line, the table's heading lines and the closing lines are nccl-tests';
- the sizes are the sweep's (min, times the factor or plus the step, up to max), each rounded as nccl-tests
  rounds it for the op, the type and the rank count, with its element count;
- algbw and busbw, recomputed from the printed size and time with nccl-tests' formulas and factors, match
  the printed ones to within the printing precision; the in-place columns equal the out-of-place ones;
- "# Avg bus bandwidth" is the mean of the printed busbw columns.

  nccl_log_check.py --mpirun M --rackscale R --op OP --ranks N --type T --redop O --root R
                    --min B --max B (--factor F | --step B) -- run CONFIG [--set ...]
"""
import argparse
import re
import subprocess
import sys

WORD = {"int8": 1, "uint8": 1, "f8e4m3": 1, "f8e5m2": 1, "half": 2, "bfloat16": 2, "int32": 4, "uint32": 4,
        "float": 4, "int64": 8, "uint64": 8, "double": 8}
SPLIT = {"all_gather", "reduce_scatter", "all_to_all", "gather", "scatter"}  # count per rank's part


def bus_factor(op, n):
    if op == "all_reduce":
        return 2.0 * (n - 1) / n
    if op in ("broadcast", "reduce", "sendrecv"):
        return 1.0
    return (n - 1) / n


def fail(message):
    print("nccl_log_check: " + message, file=sys.stderr)
    sys.exit(1)


def run(args, ranks):
    command = [args.mpirun, "-np", str(ranks), args.rackscale] + args.command
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{' '.join(command)} exited with {result.returncode}:\n{result.stderr}")
    return result.stdout


def time_decimals(microseconds):
    return 0 if microseconds >= 10000 else 1 if microseconds >= 100 else 2


def main():
    parser = argparse.ArgumentParser()
    for name in ("mpirun", "rackscale", "op", "type", "redop"):
        parser.add_argument("--" + name, required=True)
    for name in ("ranks", "root", "min", "max"):
        parser.add_argument("--" + name, type=int, required=True)
    parser.add_argument("--factor", type=int, default=1)
    parser.add_argument("--step", type=int, default=0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]

    one, two = run(args, 1), run(args, 2)
    without_wall = lambda text: [l for l in text.splitlines() if not l.startswith("# setup ")]
    if without_wall(one) != without_wall(two):
        fail("the outputs on 1 and 2 ranks differ")
    lines = two.splitlines()

    # The header and headings, as nccl-tests' printf formats make them.
    step = f"{args.factor}(factor)" if args.factor > 1 else f"{args.step}(bytes)"
    nthread = (f"# nThread 1 nGpus 1 minBytes {args.min} maxBytes {args.max} step: {step} warmup iters: 0 iters: 1 "
               "agg iters: 1 validation: 0 graph: 0")
    headings = [
        "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          "
        % ("", "", "", "", ""),
        "# %10s  %12s  %8s  %6s  %6s" % ("size", "count", "type", "redop", "root")
        + "  %7s  %6s  %6s %6s" % ("time", "algbw", "busbw", "#wrong") * 2,
        "# %10s  %12s  %8s  %6s  %6s" % ("(B)", "(elements)", "", "", "")
        + "  %7s  %6s  %6s  %5s" % ("(us)", "(GB/s)", "(GB/s)", "") * 2,
    ]
    for expected in [nthread, "# Using devices", "# Out of bounds values : 0 OK"] + headings:
        if expected not in lines:
            fail(f"no line {expected!r} in:\n{two}")
    rank_lines = [l for l in lines if re.match(r"^#  Rank +\d+ Group  0 on ", l)]
    if args.ranks <= 64 and len(rank_lines) != args.ranks:
        fail(f"{len(rank_lines)} device lines for {args.ranks} ranks")

    # The rows: whitespace-separated fields, as a log parser splits them.
    rows = [l for l in lines if l and not l.startswith("#") and not l.startswith("{")]
    word = WORD[args.type]
    sizes = []
    size = args.min
    while size <= args.max:
        sizes.append(size)
        size = size * args.factor if args.factor > 1 else size + args.step
    if len(rows) != len(sizes):
        fail(f"{len(rows)} rows for the {len(sizes)} sizes {sizes}")
    factor = bus_factor(args.op, args.ranks)
    busbws = []
    for row, loop_size in zip(rows, sizes):
        fields = row.split()
        if len(fields) != 13:
            fail(f"{len(fields)} fields, not 13: {row!r}")
        size, count, dtype, redop, root = int(fields[0]), int(fields[1]), fields[2], fields[3], int(fields[4])
        out_of_place, in_place = fields[5:9], fields[9:13]
        if out_of_place != in_place:
            fail(f"in-place differs from out-of-place: {row!r}")
        time_text, algbw, busbw, wrong = out_of_place
        time, algbw, busbw = float(time_text), float(algbw), float(busbw)
        # Fixed columns: nccl-tests' own formats give back the line exactly.
        side = "  %7s  %6.2f  %6.2f  %5s" % ("%7.*f" % (time_decimals(time), time), algbw, busbw, wrong)
        again = "%12i  %12i  %8s  %6s  %6i" % (size, count, dtype, redop, root) + side * 2
        if again != row:
            fail(f"not nccl-tests' columns:\n{row!r}\n{again!r}")
        # nccl-tests' sizes and counts.
        elements = loop_size // word
        expected_count = elements // args.ranks if args.op in SPLIT else elements
        expected_size = expected_count * word * (args.ranks if args.op in SPLIT else 1)
        if (size, count) != (expected_size, expected_count):
            fail(f"size {loop_size}: printed size {size} count {count}, expected {expected_size} {expected_count}")
        if (dtype, redop, root, wrong) != (args.type, args.redop, args.root, "N/A"):
            fail(f"type, redop, root, #wrong: {row!r}")
        # algbw = size / time, busbw = algbw x factor, to the printing precision: the time is rounded to
        # `d` decimals (half a unit), the bandwidths to 0.005.
        if size == 0 or time == 0:
            if algbw != 0 or busbw != 0:
                fail(f"bandwidth of nothing: {row!r}")
        else:
            half_unit = 0.5 * 10 ** -time_decimals(time)
            recomputed = size / (time * 1e3)  # bytes per us / 1e3 = GB/s
            slack = size / 1e3 * half_unit / (time * max(time - half_unit, 1e-9))
            if abs(algbw - recomputed) > 0.005 + slack + 1e-9:
                fail(f"algbw {algbw} is not size / time = {recomputed}: {row!r}")
            if abs(busbw - factor * recomputed) > 0.005 + factor * slack + 1e-9:
                fail(f"busbw {busbw} is not {factor} x algbw = {factor * recomputed}: {row!r}")
        busbws += [busbw, busbw]

    average = [l for l in lines if l.startswith("# Avg bus bandwidth    : ")]
    if len(average) != 1 or not average[0].endswith(" "):
        fail(f"no '# Avg bus bandwidth    : X ' line: {average}")
    printed = float(average[0].split(":")[1])
    mean = sum(busbws) / len(busbws)
    # The mean of the exact figures, each within 0.005 of its printed value; %g keeps 6 digits.
    if abs(printed - mean) > 0.005 + 1e-5 * abs(mean):
        fail(f"Avg bus bandwidth {printed}, the printed busbw average {mean}")
    print(f"nccl_log_check: {len(rows)} rows of {args.op} over {args.ranks} ranks, avg busbw {printed}")


if __name__ == "__main__":
    main()
