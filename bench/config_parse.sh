#!/bin/sh
# Time and peak memory of `rackscale validate` on hostile configs (docs/reliability.md): a mapping of
# KEYS keys (default 1,000,000) with one repeated at the end, the same without the repeat (rejected at
# the first unknown key, after the whole file is parsed), and a "billion laughs" (9 levels of 9 aliases).
# Each is refused with exit 2; the figure is how long that takes. `rackscale validate` of an example
# config is printed first as the fixed cost (MPI start-up, presets).
#   sh bench/config_parse.sh [path/to/rackscale]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rackscale=${1:-$here/../build/rackscale}
keys=${KEYS:-1000000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 - "$dir" "$keys" <<'PY'
import sys
d, n = sys.argv[1], int(sys.argv[2])
body = ''.join(f'key{i}: {i}\n' for i in range(n))
open(f'{d}/repeated_key.yaml', 'w').write(body + 'key0: again\n')
open(f'{d}/unknown_keys.yaml', 'w').write('name: x\n' + body)
lines = ['name: x', 'description: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]', 'laughs:']
for i in range(1, 10):
    lines.append(f'  l{i}: &l{i} [' + ', '.join([f'*l{i - 1}'] * 9) + ']')
open(f'{d}/billion_laughs.yaml', 'w').write('\n'.join(lines) + '\n')
PY

measure() {  # name file
  if /usr/bin/time -f "$1: %e s wall, %U s user, %S s system, %M KiB peak RSS" -o "$dir/time" \
       "$rackscale" validate "$2" >/dev/null 2>"$dir/err"; then
    code=0
  else
    code=$?
  fi
  echo "$(tail -n 1 "$dir/time") (exit $code: $(head -c 120 "$dir/err" | head -n 1 | sed "s|$dir/||"))"
}
measure "example config" "$here/../configs/examples/fat-tree-128.yaml"
measure "$keys keys, one repeated" "$dir/repeated_key.yaml"
measure "$keys unknown keys" "$dir/unknown_keys.yaml"
measure "billion laughs" "$dir/billion_laughs.yaml"
