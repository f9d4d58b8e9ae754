# The arguments of the job scripts, parsed and checked in one place: jobs/submit checks them before
# calling sbatch (so that a mistake fails at submission, not after queueing), and each *.sbatch
# script checks them again when it starts (for those who call sbatch themselves). Sourced by bash.
#
#   rs_parse_arguments MODE KIND ARGS...
#     MODE: submit (also accepts the options that only jobs/submit knows) or job
#     KIND: run, strong-scaling, weak-scaling, sweep
#   sets RS_CONFIG, RS_SETS (array of KEY=VALUE), RS_PARTITION, RS_SWEEP (sweep), RS_PER_RANK
#   (array of KEY=N, weak-scaling), RS_RANKS (the scaling studies' list of rank counts, which
#   their array task ids index; in submit mode also a run's or sweep's rank count), and in submit
#   mode RS_METRICS (array), RS_COLLECT (yes/no) and RS_SBATCH (array of options for sbatch, after
#   --). A bad argument prints the problem and the usage on standard error and exits with 2.

RS_PROGRAM=${RS_PROGRAM:-$(basename "$0")}

# Prints the usage of each KIND given, then what they share.
rs_usage() {
  local kind
  for kind in "$@"; do rs_usage_of "$kind"; done
  cat <<'USAGE'
  --local runs the study here, one run after the other with mpirun, instead of queueing it;
  --dry-run checks everything and prints the sbatch commands and the array's tasks without submitting.
  METHOD: block, round_robin or metis. PATH: a figure to collect, /GROUP@ATTRIBUTE
  (for example /traffic@line_rate_fraction or /training@mfu). Details: docs/hpc.md.
USAGE
}

rs_usage_of() {
  case $1 in
    run) cat <<'USAGE'
usage: jobs/submit [--local | --dry-run] run CONFIG [--set KEY=VALUE]... [--partition METHOD] [--ranks N]
                   [-- SBATCH_OPTION...]
       sbatch [--ntasks=N] jobs/run.sbatch CONFIG [--set KEY=VALUE]... [--partition METHOD]
  One simulation on N MPI ranks (default: the script's #SBATCH --ntasks; 1 with --local).
USAGE
    ;;
    strong-scaling) cat <<'USAGE'
usage: jobs/submit [--local | --dry-run] strong-scaling CONFIG --ranks N,N,... [--set KEY=VALUE]...
                   [--partition METHOD] [--metric PATH]... [--no-collect] [-- SBATCH_OPTION...]
       sbatch --array=0-(COUNTS-1) --ntasks=MAX jobs/strong-scaling.sbatch CONFIG --ranks N,N,... [--set ...]
  One config on each rank count (array task K runs the K-th count, from 0), then collect.
USAGE
    ;;
    weak-scaling) cat <<'USAGE'
usage: jobs/submit [--local | --dry-run] weak-scaling CONFIG --ranks N,N,... --per-rank KEY=COUNT...
                   [--set KEY=VALUE]... [--partition METHOD] [--metric PATH]... [--no-collect] [-- SBATCH_OPTION...]
       sbatch --array=0-(COUNTS-1) --ntasks=MAX jobs/weak-scaling.sbatch CONFIG --ranks N,N,... --per-rank KEY=COUNT...
  The config grown with the rank count: on N ranks each --per-rank KEY is set to N x COUNT
  (for example --per-rank cluster.nodes=16), then collect.
USAGE
    ;;
    sweep) cat <<'USAGE'
usage: jobs/submit [--local | --dry-run] sweep CONFIG SWEEP_FILE [--set KEY=VALUE]... [--partition METHOD]
                   [--ranks N] [--metric PATH]... [--no-collect] [-- SBATCH_OPTION...]
       sbatch --array=0-(POINTS-1) jobs/sweep.sbatch CONFIG SWEEP_FILE [--set KEY=VALUE]... [--partition METHOD]
  Every point of the grid in SWEEP_FILE (lines "KEY: VALUE | VALUE | ..."), one array task each, then collect.
USAGE
    ;;
  esac
}

# Prints "PROGRAM: MESSAGE" and exits with 2 (bad input).
rs_bad_input() {
  echo "$RS_PROGRAM: $1" >&2
  exit 2
}

# Prints "PROGRAM: MESSAGE" and the usage of KIND, then exits with 2.
rs_bad_argument() {
  echo "$RS_PROGRAM: $2" >&2
  rs_usage "$1" >&2
  exit 2
}

rs_is_count() { case $1 in '' | *[!0-9]* | 0*) return 1 ;; esac; }
# A config key path such as cluster.scale_out.fat_tree.oversubscription.
rs_is_key() { case $1 in '' | [!A-Za-z_]* | *[!A-Za-z0-9_.]*) return 1 ;; esac; }

rs_check_ranks_list() {
  local kind=$1 list=$2 seen="," n
  case $list in '' | ,* | *, | *,,*) rs_bad_argument "$kind" "--ranks: expected rank counts like 1,2,4,8, found '$list'" ;; esac
  for n in $(printf '%s' "$list" | tr ',' ' '); do
    rs_is_count "$n" || rs_bad_argument "$kind" "--ranks: expected positive whole numbers separated by commas, found '$n' in '$list'"
    case $seen in *",$n,"*) rs_bad_argument "$kind" "--ranks: $n appears twice in '$list'" ;; esac
    seen="$seen$n,"
  done
}

rs_parse_arguments() {
  local mode=$1 kind=$2 option value expected positional=()
  shift 2
  case $kind in run | strong-scaling | weak-scaling | sweep) ;; *) echo "rs_parse_arguments: unknown kind '$kind'" >&2; exit 1 ;; esac
  RS_CONFIG="" RS_SWEEP="" RS_PARTITION="" RS_RANKS="" RS_COLLECT=yes
  RS_SETS=() RS_PER_RANK=() RS_METRICS=() RS_SBATCH=()
  while [ $# -gt 0 ]; do
    option=$1
    # --option=value is the same as --option value.
    case $option in --*=*) set -- "${option%%=*}" "${option#*=}" "${@:2}"; option=$1 ;; esac
    case $option in
      --set | --partition | --per-rank | --ranks | --metric)
        [ $# -ge 2 ] || rs_bad_argument "$kind" "$option: expected a value, found the end of the arguments"
        value=$2
        shift 2
        ;;
      --no-collect | --) value=""; shift ;;
      -h | --help) rs_usage "$kind"; exit 0 ;;
      --local | --dry-run) rs_bad_argument "$kind" "$option goes before the study: jobs/submit $option $kind ..." ;;
      -*) rs_bad_argument "$kind" "unknown option '$option'" ;;
      *) positional+=("$option"); shift; continue ;;
    esac
    if [ "$mode" != submit ]; then
      case $option in --metric | --no-collect | --)
        rs_bad_argument "$kind" "$option is an option of jobs/submit; with sbatch, give the allocation as sbatch options" ;;
      esac
      # A scaling job needs the list its array task ids index; a run or a sweep point takes --ntasks.
      if [ "$option" = --ranks ] && [ "$kind" != strong-scaling ] && [ "$kind" != weak-scaling ]; then
        rs_bad_argument "$kind" "--ranks is an option of jobs/submit for $kind; with sbatch, give --ntasks=N to sbatch"
      fi
    fi
    case $option in
      --set)
        if [ "${value%%=*}" = "$value" ] || ! rs_is_key "${value%%=*}"; then
          rs_bad_argument "$kind" "--set: expected KEY=VALUE such as cluster.nodes=32, found '$value'"
        fi
        RS_SETS+=("$value")
        ;;
      --partition)
        # Which methods exist is rackscale's to say: jobs/submit asks it, and so does the run.
        [ -n "$value" ] || rs_bad_argument "$kind" "--partition: expected a partition method, found nothing"
        RS_PARTITION=$value
        ;;
      --per-rank)
        [ "$kind" = weak-scaling ] || rs_bad_argument "$kind" "--per-rank belongs to weak-scaling"
        if [ "${value%%=*}" = "$value" ] || ! rs_is_key "${value%%=*}" || ! rs_is_count "${value#*=}"; then
          rs_bad_argument "$kind" "--per-rank: expected KEY=COUNT with a positive whole COUNT such as cluster.nodes=16, found '$value'"
        fi
        RS_PER_RANK+=("$value")
        ;;
      --ranks)
        if [ "$kind" = strong-scaling ] || [ "$kind" = weak-scaling ]; then
          rs_check_ranks_list "$kind" "$value"
        else
          rs_is_count "$value" || rs_bad_argument "$kind" "--ranks: expected a positive whole number, found '$value'"
        fi
        RS_RANKS=$value
        ;;
      --metric)
        [ "$kind" != run ] || rs_bad_argument "$kind" "--metric belongs to the studies that collect (strong-scaling, weak-scaling, sweep)"
        case $value in /*@?*) ;; *) rs_bad_argument "$kind" "--metric: expected /GROUP@ATTRIBUTE such as /traffic@line_rate_fraction, found '$value'" ;; esac
        RS_METRICS+=("$value")
        ;;
      --no-collect) RS_COLLECT=no ;;
      --) RS_SBATCH=("$@"); break ;;
    esac
  done

  expected=1
  [ "$kind" = sweep ] && expected=2
  if [ ${#positional[@]} -lt $expected ]; then
    [ "$kind" = sweep ] && [ ${#positional[@]} -eq 1 ] && rs_bad_argument "$kind" "missing the SWEEP_FILE"
    rs_bad_argument "$kind" "missing the CONFIG (a scenario YAML file)"
  fi
  [ ${#positional[@]} -eq $expected ] || rs_bad_argument "$kind" "unexpected argument '${positional[$expected]}'"
  RS_CONFIG=${positional[0]}
  [ -f "$RS_CONFIG" ] || rs_bad_argument "$kind" "CONFIG '$RS_CONFIG': no such file"
  if [ "$kind" = sweep ]; then
    RS_SWEEP=${positional[1]}
    [ -f "$RS_SWEEP" ] || rs_bad_argument "$kind" "SWEEP_FILE '$RS_SWEEP': no such file"
  fi
  if [ "$kind" = weak-scaling ] && [ ${#RS_PER_RANK[@]} -eq 0 ]; then
    rs_bad_argument "$kind" "missing --per-rank KEY=COUNT: what grows with the rank count"
  fi
  if [ -z "$RS_RANKS" ] && { [ "$kind" = strong-scaling ] || [ "$kind" = weak-scaling ]; }; then
    rs_bad_argument "$kind" "missing --ranks N,N,...: the rank counts of the study"
  fi
  return 0
}

# Prints the overrides of a weak-scaling step on RANKS ranks, one a line: KEY=RANKS*COUNT for each
# --per-rank KEY=COUNT.
rs_per_rank_sets() {
  local ranks=$1 item
  for item in "${RS_PER_RANK[@]}"; do
    echo "${item%%=*}=$((${item#*=} * ranks))"
  done
}
