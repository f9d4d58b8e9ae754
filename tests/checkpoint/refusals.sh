#!/bin/sh
# Checkpoints that cannot be used are refused with exit 2 and a message naming the file and what is
# wrong, before anything is simulated: another rank count, config, placement or workload, a truncated
# or corrupted file, a file that is not a checkpoint, a missing one; and bad options. A checkpoint that
# cannot be written stops the run with exit 1 and the file's name.
#   refusals.sh MPIRUN RACKSCALE TRAFFIC_CONFIG TRAINING_CONFIG COLLECTIVE_CONFIG WORK
set -u
mpirun=$1 rackscale=$2 config=$3 training=$4 collective=$5 work=$6
rm -rf "$work" && mkdir -p "$work" || exit 1
ck=$work/checkpoint
failures=0

# expect CODE REGEX COMMAND...: the command exits with CODE and its standard error matches REGEX.
expect() {
  code=$1 pattern=$2
  shift 2
  "$@" >"$work/out" 2>"$work/err"
  found=$?
  if [ "$found" -ne "$code" ] || ! grep -Eq -- "$pattern" "$work/err"; then
    echo "FAILED: $*: exit $found (expected $code), stderr (expected to match '$pattern'):" >&2
    cat "$work/err" >&2
    failures=$((failures + 1))
  else
    echo "ok: $(grep -E -- "$pattern" "$work/err" | head -n 1)"
  fi
}

# A small traffic run with some windows, on 2 ranks or 1, with extra arguments.
run2_with() { "$mpirun" -np 2 "$rackscale" run "$config" --set workload.pattern=uniform_random --set workload.messages=16 --set workload.bytes=64KiB "$@"; }
run1_with() { "$rackscale" run "$config" --set workload.pattern=uniform_random --set workload.messages=16 --set workload.bytes=64KiB "$@"; }

expect 4 "checkpoint written to $ck" run2_with --stop-after-windows 3 --checkpoint "$ck"
[ -f "$ck" ] || { echo "FAILED: no checkpoint written" >&2; exit 1; }
size=$(wc -c <"$ck")

expect 2 "checkpoint $ck \(byte 12\): it was written by 2 rank\(s\); restart it on 2 rank\(s\) \(this run has 1\)" \
  run1_with --restart "$ck"
expect 2 "checkpoint $ck \(byte 16\): it was written for another config" run2_with --set simulation.seed=5 --restart "$ck"
expect 2 "checkpoint $ck \(byte 24\): it was written with another placement of LPs on ranks" \
  run2_with --partition block --restart "$ck"
expect 2 "checkpoint $ck \(byte 52\): it was written by a traffic run; this is a phold run" \
  "$mpirun" -np 2 "$rackscale" phold --restart "$ck"

head -c $((size / 2)) "$ck" >"$work/truncated"
expect 2 "checkpoint $work/truncated \(byte $((size / 2))\): the file has $((size / 2)) bytes where its header announces $size; it is truncated" \
  run2_with --restart "$work/truncated"
head -c 20 "$ck" >"$work/header-cut"
expect 2 "checkpoint $work/header-cut \(byte 20\): the file ends inside the config hash; it is truncated" \
  run2_with --restart "$work/header-cut"
# One byte flipped in the middle of the ranks' states.
cp "$ck" "$work/corrupt"
printf '\377' | dd of="$work/corrupt" bs=1 seek=$((size - 100)) conv=notrunc 2>/dev/null
expect 2 "checkpoint $work/corrupt \(byte [0-9]+\): rank 1's state \(bytes [0-9]+ to $size\) does not match its checksum; the file is corrupt" \
  run2_with --restart "$work/corrupt"
# One byte flipped in the header.
cp "$ck" "$work/corrupt-header"
printf '\377' | dd of="$work/corrupt-header" bs=1 seek=33 conv=notrunc 2>/dev/null
expect 2 "checkpoint $work/corrupt-header \(byte [0-9]+\): the header's checksum does not match its contents" \
  run2_with --restart "$work/corrupt-header"
printf 'name: not a checkpoint\n' >"$work/yaml"
expect 2 "checkpoint $work/yaml \(byte 0\): this is not a rackscale checkpoint" run2_with --restart "$work/yaml"
expect 2 "checkpoint $work/missing: no such file" run2_with --restart "$work/missing"

# Options.
expect 2 "--checkpoint-every needs --checkpoint FILE" run1_with --checkpoint-every 10min
expect 2 "--checkpoint-every: expected a positive number with a unit of s, min or h \(such as 30min\); got '10 parsecs'" \
  run1_with --checkpoint "$ck" --checkpoint-every "10 parsecs"
expect 2 "--trace cannot be combined with --checkpoint or --restart" \
  "$rackscale" run "$training" --trace "$work/trace.json" --checkpoint "$work/t"
[ ! -e "$work/t" ] && [ ! -e "$work/trace.json" ] || { echo "FAILED: a refused training run wrote a file" >&2; failures=$((failures + 1)); }

# A training checkpoint and a collective benchmark's: restarted on another rank count, with another
# config or as another workload.
train2_with() { "$mpirun" -np 2 "$rackscale" run "$training" --set network.fidelity=analytical --set workload.iterations=1 "$@"; }
train1_with() { "$rackscale" run "$training" --set network.fidelity=analytical --set workload.iterations=1 "$@"; }
tck=$work/training-checkpoint
expect 4 "checkpoint written to $tck" train2_with --stop-after-windows 50 --checkpoint "$tck"
expect 2 "checkpoint $tck \(byte 12\): it was written by 2 rank\(s\); restart it on 2 rank\(s\) \(this run has 1\)" \
  train1_with --restart "$tck"
expect 2 "checkpoint $tck \(byte 16\): it was written for another config" \
  train2_with --set workload.parallel.micro_batch=2 --restart "$tck"
expect 2 "checkpoint $tck \(byte 24\): it was written with another placement of LPs on ranks" \
  train2_with --partition block --restart "$tck"
expect 2 "checkpoint $tck \(byte 52\): it was written by a training run; this is a collective run" \
  "$mpirun" -np 2 "$rackscale" run "$collective" --restart "$tck"
cck=$work/collective-checkpoint
expect 4 "checkpoint written to $cck" "$mpirun" -np 2 "$rackscale" run "$collective" --set network.collectives=messages \
  --stop-after-windows 40 --checkpoint "$cck"
expect 2 "checkpoint $cck \(byte 12\): it was written by 2 rank\(s\); restart it on 2 rank\(s\) \(this run has 1\)" \
  "$rackscale" run "$collective" --set network.collectives=messages --restart "$cck"
expect 2 "checkpoint $cck \(byte 16\): it was written for another config" \
  "$mpirun" -np 2 "$rackscale" run "$collective" --set network.collectives=messages --set workload.max_bytes=1MiB \
  --restart "$cck"

# A checkpoint that cannot be written: exit 1, named, and the earlier checkpoint is untouched.
cp "$ck" "$work/before"
expect 1 "checkpoint $work/no/such/dir/ck: cannot create $work/no/such/dir/ck.tmp-[0-9]+" \
  run2_with --stop-after-windows 2 --checkpoint "$work/no/such/dir/ck"
cmp -s "$ck" "$work/before" || { echo "FAILED: the earlier checkpoint changed" >&2; failures=$((failures + 1)); }

[ "$failures" -eq 0 ] || exit 1
rm -rf "$work"
