#!/bin/sh
# Fuzzes the config loader and --set for a fixed time (docs/reliability.md, "Fuzzing the config loader"):
# libFuzzer with ASan and UBSan (the fuzz preset, `make fuzz`), seeded with the bad configs
# (tests/io/bad_configs), the example and training configs and fuzz/seeds, with fuzz/config.dict.
#   sh bench/fuzz_config.sh [SECONDS] [path/to/fuzz_config]        (default 60 s)
# The corpus grows in build-fuzz/fuzz-corpus/config and is kept, so later runs start where earlier ones
# stopped; a crash, sanitizer report, leak, timeout (FUZZ_TIMEOUT, default 10 s per input) or memory
# blow-up (2 GB) is written to build-fuzz/fuzz-findings/ and ends the run with a non-zero exit. Replay a
# finding with
#   build-fuzz/fuzz/fuzz_config build-fuzz/fuzz-findings/crash-...
# libFuzzer's timeout is wall time: a niced fuzzer on a busy machine can pass it on an input that needs
# a fraction of a second of CPU, so a timeout is replayed here alone and its CPU time printed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/..
seconds=${1:-60}
fuzzer=${2:-$root/build-fuzz/fuzz/fuzz_config}
corpus=$root/build-fuzz/fuzz-corpus/config
findings=$root/build-fuzz/fuzz-findings
mkdir -p "$corpus" "$findings"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

start=$(date +%s)
if "$fuzzer" "$corpus" "$root/tests/io/bad_configs" "$root/configs/examples" "$root/configs/training" \
     "$root/fuzz/seeds" -dict="$root/fuzz/config.dict" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" \
     -rss_limit_mb=2048 -max_len=8192 -artifact_prefix="$findings/" -print_final_stats=1 2>"$log"; then
  code=0
else
  code=$?
fi
end=$(date +%s)

# The figures libFuzzer prints: the last status line (coverage, corpus) and its final statistics.
grep -E '^#[0-9]+' "$log" | tail -n 1
grep -E '^stat::' "$log"
echo "wall time: $((end - start)) s, corpus $(ls "$corpus" | wc -l) files in $corpus"
if [ "$code" -ne 0 ]; then
  echo "fuzz_config: exit $code; the finding:" >&2
  grep -E -A 40 '^==[0-9]+==ERROR|^INFO: libFuzzer: (timeout|out-of-memory)|deadly signal|uncaught exception' "$log" >&2 || tail -n 60 "$log" >&2
  latest=$(ls -t "$findings" | head -n 1)
  echo "written to $findings/$latest" >&2
  case "$latest" in
    timeout-*) /usr/bin/time -f "replayed alone: %e s wall, %U s user CPU (the input and the fuzzer's start)" \
                 "$fuzzer" "$findings/$latest" >/dev/null 2>"$log" || true
               tail -n 1 "$log" >&2 ;;
  esac
fi
exit "$code"
