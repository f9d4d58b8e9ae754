# Sweep files: a parameter grid for jobs/sweep.sbatch. Sourced by bash, after arguments.sh.
#
# A sweep file has one axis per line, "KEY: VALUE | VALUE | ...", where KEY is a config key path and
# each VALUE what `rackscale run --set KEY=VALUE` accepts (so YAML: a scalar, [a, b], {a: 1}).
# Blank lines and lines starting with # are ignored. The grid is every combination of one value per
# axis; point k (from 0) takes its values in mixed radix, the last axis changing fastest, so
#
#   network.routing: ecmp | spray
#   cluster.scale_out.fat_tree.oversubscription: 1 | 3
#
# has the points 0: ecmp 1, 1: ecmp 3, 2: spray 1, 3: spray 3.
#
#   rs_sweep_read FILE   reads the axes into RS_SWEEP_KEYS and RS_SWEEP_VALUES (one string per
#                        axis, its values separated by newlines); a malformed file exits with 2
#                        and "FILE:LINE: what was expected, what was found"
#   rs_sweep_size        prints the number of points
#   rs_sweep_point K     sets RS_POINT_SETS to point K's overrides (KEY=VALUE, one per axis)

rs_trim() {
  local text=$1
  text=${text#"${text%%[![:space:]]*}"}
  printf '%s' "${text%"${text##*[![:space:]]}"}"
}

rs_sweep_read() {
  local file=$1 line number=0 key value values part
  local -a parts
  RS_SWEEP_KEYS=() RS_SWEEP_VALUES=()
  while IFS= read -r line || [ -n "$line" ]; do
    number=$((number + 1))
    line=$(rs_trim "$line")
    case $line in '' | '#'*) continue ;; esac
    case $line in *:*) ;; *) rs_bad_input "$file:$number: expected 'KEY: VALUE | VALUE ...', found '$line'" ;; esac
    key=$(rs_trim "${line%%:*}")
    rs_is_key "$key" || rs_bad_input "$file:$number: expected a config key such as network.routing before ':', found '$key'"
    for part in "${RS_SWEEP_KEYS[@]}"; do
      [ "$part" != "$key" ] || rs_bad_input "$file:$number: $key: this key is already an axis of the sweep"
    done
    IFS='|' read -r -a parts <<<"${line#*:}"
    values=""
    for part in "${parts[@]}"; do
      value=$(rs_trim "$part")
      [ -n "$value" ] || rs_bad_input "$file:$number: $key: expected values separated by '|', found an empty value in '${line#*:}'"
      values="$values$value"$'\n'
    done
    [ -n "$values" ] || rs_bad_input "$file:$number: $key: expected at least one value after ':'"
    RS_SWEEP_KEYS+=("$key")
    RS_SWEEP_VALUES+=("${values%$'\n'}")
  done <"$file"
  [ ${#RS_SWEEP_KEYS[@]} -gt 0 ] || rs_bad_input "$file: expected lines 'KEY: VALUE | VALUE ...', found no axis"
}

rs_sweep_axis_length() { printf '%s\n' "${RS_SWEEP_VALUES[$1]}" | wc -l; }

rs_sweep_size() {
  local size=1 axis
  for axis in "${!RS_SWEEP_KEYS[@]}"; do
    size=$((size * $(rs_sweep_axis_length "$axis")))
  done
  echo "$size"
}

rs_sweep_point() {
  local rest=$1 axis length
  RS_POINT_SETS=()
  for ((axis = ${#RS_SWEEP_KEYS[@]} - 1; axis >= 0; axis--)); do
    length=$(rs_sweep_axis_length "$axis")
    RS_POINT_SETS=("${RS_SWEEP_KEYS[$axis]}=$(printf '%s\n' "${RS_SWEEP_VALUES[$axis]}" | sed -n "$((rest % length + 1))p")" "${RS_POINT_SETS[@]}")
    rest=$((rest / length))
  done
}
