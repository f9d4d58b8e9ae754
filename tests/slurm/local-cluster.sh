# A private single-node Slurm cluster on localhost, for tests: sourced by bash scripts.
#
#   local_cluster_start DIR   starts munged, slurmctld and slurmd with everything (key, sockets,
#                             config, state, spool, logs) under DIR, on free ports, and exports
#                             SLURM_CONF so that sbatch, squeue, sacct ... talk to it
#   local_cluster_stop        stops every daemon it started, by PID (call it from an EXIT trap)
#   local_cluster_cgroup_seen what slurmd sees at /sys/fs/cgroup: absent, read-only or writable
#
# Nothing outside DIR is read or written (beyond the Debian packages slurmctld, slurmd,
# slurm-client and munge), so a cluster left over by an earlier run that died, or the machine's own
# Slurm, cannot disturb a new one: other ports, other munge socket, other key.
# The settings follow what a container without systemd or cgroup delegation allows: no cgroups at
# all (below), and PMIx as the default MPI plugin, since Debian's Open MPI only launches under srun
# through PMIx.
#
# No cgroups: process tracking by /proc (proctrack/linuxproc), no task binding or confinement
# (task/none), no accounting (jobacct_gather/none). Slurm 22.05's slurmd still loads a cgroup
# plugin at start, and with the default CgroupPlugin=autodetect it inspects /sys/fs/cgroup and fails
# without one ("No filesystem mounted on /sys/fs/cgroup; Unable to initialize cgroup plugin") or on a
# v2 mount beside v1 hierarchies ("Hybrid mode is not supported"). cgroup.conf names cgroup/v1
# instead, which only touches /sys/fs/cgroup when another plugin asks for a controller, and none does.
#
# LOCAL_CLUSTER_CGROUP says what slurmd, and so every job step it starts, sees at /sys/fs/cgroup, so
# that the test proves the above on any machine:
#   absent     (default) nothing: slurmd runs in a private mount namespace with /sys/fs/cgroup
#              unmounted (the machine keeps its own)
#   read-only  the machine's cgroup file systems, remounted read-only in a private mount namespace
#   host       the machine's, as they are
# Without the privilege to make a mount namespace (unshare fails), it says so and uses the host's.

LOCAL_CLUSTER_PIDS=()

# A TCP port on 127.0.0.1 nobody listens on now (the kernel picks it; a race with another program
# taking it before our daemon does is possible but would only fail the start, loudly).
local_cluster_free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

local_cluster_log() { echo "local-cluster: $*" >&2; }

# Starts "$@" in the background with its output in the log file $1 and records its PID.
local_cluster_spawn() {
  log=$1; shift
  "$@" >"$log" 2>&1 &
  LOCAL_CLUSTER_PIDS+=("$!")
}

# Prints the command prefix that runs a program with /sys/fs/cgroup as LOCAL_CLUSTER_CGROUP says
# (nothing for host). unshare and sh exec the program, so its PID is the one local_cluster_spawn records.
local_cluster_cgroup_prefix() {
  local hide
  case ${LOCAL_CLUSTER_CGROUP:-absent} in
    host) return 0 ;;
    absent) hide='umount -l /sys/fs/cgroup 2>/dev/null; ! grep -q " /sys/fs/cgroup" /proc/self/mounts' ;;
    read-only) hide='for m in $(awk '"'"'$2 ~ "^/sys/fs/cgroup" {print $2}'"'"' /proc/self/mounts); do mount -o remount,bind,ro "$m" || exit 1; done' ;;
    *) local_cluster_log "LOCAL_CLUSTER_CGROUP=$LOCAL_CLUSTER_CGROUP: expected absent, read-only or host"; return 1 ;;
  esac
  if ! unshare --mount --propagation private sh -c "$hide" 2>/dev/null; then
    local_cluster_log "cannot give slurmd a private mount namespace (unshare --mount failed): it sees the machine's /sys/fs/cgroup"
    return 0
  fi
  printf '%s\n' unshare --mount --propagation private sh -c "$hide && exec \"\$@\"" sh
}

local_cluster_start() {
  dir=$1
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
  # munged insists that its socket directory is not writable by others and that the key is
  # readable by its owner only.
  chmod 0755 "$dir" "$dir/munge"
  mungekey --create --keyfile="$dir/munge/munge.key" || return 1
  chmod 0400 "$dir/munge/munge.key"
  socket="$dir/munge/munge.socket"
  local_cluster_spawn "$dir/log/munged.out" munged -F --force \
    --socket="$socket" --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
    --seed-file="$dir/munge/munged.seed" --log-file="$dir/log/munged.log"
  for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
  if [ ! -S "$socket" ]; then
    local_cluster_log "munged did not create $socket; its log:"; cat "$dir/log/munged.out" >&2
    return 1
  fi

  # The node as slurmd sees it: "NodeName=vm CPUs=2 Boards=1 ... RealMemory=24105".
  node_line=$(slurmd -C | head -n 1)
  node=$(printf '%s\n' "$node_line" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
  node_resources=$(printf '%s\n' "$node_line" | sed 's/^NodeName=[^ ]* //')
  # Job ids of their own too: Open MPI names shared-memory segments after the job, and a leftover
  # segment of an earlier cluster's job 1 must not meet this cluster's job 1.
  first_job_id=$((1000 + $(date +%s) % 60000000))
  ctld_port=$(local_cluster_free_port)
  slurmd_port=$(local_cluster_free_port)
  cat >"$dir/slurm.conf" <<CONF
ClusterName=rackscale-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=pmix
SchedulerParameters=batch_sched_delay=0
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
FirstJobId=$first_job_id
NodeName=$node NodeAddr=127.0.0.1 $node_resources State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  # Read from beside slurm.conf. Why cgroup/v1: the comment at the top.
  printf 'CgroupPlugin=cgroup/v1\n' >"$dir/cgroup.conf"
  export SLURM_CONF="$dir/slurm.conf"
  local prefix
  local -a cgroup_prefix=()
  prefix=$(local_cluster_cgroup_prefix) || return 1
  [ -z "$prefix" ] || mapfile -t cgroup_prefix <<<"$prefix"
  local_cluster_spawn "$dir/log/slurmctld.out" slurmctld -D -i -f "$SLURM_CONF"
  local_cluster_spawn "$dir/log/slurmd.out" "${cgroup_prefix[@]}" slurmd -D -N "$node" -f "$SLURM_CONF"
  LOCAL_CLUSTER_SLURMD_PID=$!

  # Ready when the node is idle (slurmd registered with slurmctld); a daemon that exits fails at once.
  local pid
  for _ in $(seq 300); do
    state=$(sinfo --noheader --nodes="$node" --format=%T 2>/dev/null)
    [ "$state" = idle ] && return 0
    for pid in "${LOCAL_CLUSTER_PIDS[@]}"; do local_cluster_running "$pid" || break 2; done
    sleep 0.2
  done
  local_cluster_log "node $node did not become idle (state: '${state:-no answer}'); logs:"
  tail -n 20 "$dir"/log/*.out "$dir"/log/*.log >&2 2>/dev/null
  return 1
}

# What slurmd (and so every job) sees at /sys/fs/cgroup, from its own mount table: "absent",
# "read-only" (every cgroup mount read-only) or "writable".
local_cluster_cgroup_seen() {
  local mounts
  mounts=$(awk '$2 ~ "^/sys/fs/cgroup" {print $4}' "/proc/$LOCAL_CLUSTER_SLURMD_PID/mounts")
  if [ -z "$mounts" ]; then echo absent
  elif grep -qv '^ro,\|^ro$' <<<"$mounts"; then echo writable
  else echo read-only
  fi
}

# True while PID runs (a child that has exited but not been waited for is a zombie: not running).
local_cluster_running() {
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
  [ -n "$state" ] && [ "$state" != Z ]
}

local_cluster_stop() {
  local pid index
  local -a jobs
  # Jobs first, so that no job step (slurmstepd and its ranks, started by slurmd) outlives the
  # cluster; every job here is this cluster's own.
  if [ ${#LOCAL_CLUSTER_PIDS[@]} -gt 0 ]; then
    mapfile -t jobs < <(squeue --noheader --format=%i 2>/dev/null)
    if [ ${#jobs[@]} -gt 0 ]; then
      scancel --full "${jobs[@]}" 2>/dev/null || true
      for _ in $(seq 100); do [ -z "$(squeue --noheader --format=%i 2>/dev/null)" ] && break; sleep 0.1; done
    fi
  fi
  # Then slurmd, slurmctld and munged, one after the other (slurmctld needs munge to shut down).
  for ((index = ${#LOCAL_CLUSTER_PIDS[@]} - 1; index >= 0; index--)); do
    pid=${LOCAL_CLUSTER_PIDS[$index]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do local_cluster_running "$pid" || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  LOCAL_CLUSTER_PIDS=()
}
