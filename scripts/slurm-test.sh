#!/usr/bin/env bash
# The campaign script under a real single-node Slurm (Debian's slurm-wlm and munge), started
# here without systemd: an array of 4 parts, part 2 stopped mid-way by
# `scancel --batch --signal=TERM`, which requeues itself and resumes; the merged records must
# equal one unsharded run's (times and paths aside), with none repeated. Then part 4 alone is
# run again from scratch (`--array=4`, PARTS=4) under a one-minute time limit, its first run
# held up so that the limit's warning signal (`--signal=B:TERM@60`, at once under a minute's
# limit) stops it; it requeues itself, runs again with a longer limit, and must give the same
# records.
#
#   scripts/slurm-test.sh [CSP]          # CSP: the program (default target/release/csp)
#
# Exit 0 when the test passed or could not run (the reason is printed: no Slurm and no way to
# install it, a daemon that does not start, a queue that does not move); 1 when the records
# are wrong. `.ci/run` runs it; SLURM_TEST_INSTALL=1 lets it install the packages with apt-get.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CSP="$(realpath "${1:-target/release/csp}")"
skip() {
    echo "slurm test skipped: $*"
    exit 0
}
fail() {
    echo "slurm test FAILED: $*" >&2
    exit 1
}

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    if [ "${SLURM_TEST_INSTALL:-0}" = 1 ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
        echo "== installing slurm-wlm and munge"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 ||
            { apt-get update -qq >/dev/null 2>&1 &&
              DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1; } ||
            skip "slurm-wlm and munge could not be installed"
    else
        skip "no slurmctld or munged (install slurm-wlm and munge, or set SLURM_TEST_INSTALL=1 as root)"
    fi
fi
[ "$(id -u)" -eq 0 ] || skip "the daemons are started as root here"
[ -x "$CSP" ] || fail "no program at $CSP"

work=$(mktemp -d /tmp/csp-slurm-test.XXXXXX)
cleanup() {
    [ -n "${SLURM_CONF:-}" ] && scancel --quiet --user=root >/dev/null 2>&1
    pkill -f "slurmd -f $work" >/dev/null 2>&1
    pkill -f "slurmctld -f $work" >/dev/null 2>&1
    sleep 1
    rm -rf "$work" 2>/dev/null
}
trap cleanup EXIT

# munge: one daemon for the machine (its socket is where Slurm's plugin looks for it).
if ! pgrep -x munged >/dev/null 2>&1; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge /etc/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null
    [ -s /etc/munge/munge.key ] || { (mungekey --create >/dev/null 2>&1 ||
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 >/dev/null 2>&1) &&
        chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key; }
    munged --force >/dev/null 2>&1 || skip "munged does not start"
fi

host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=csptest
SlurmctldHost=$host
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=6917
SlurmdPort=6918
ReturnToService=2
JobRequeue=1
MpiDefault=none
KillWait=5
OverTimeLimit=0
InactiveLimit=0
MinJobAge=600
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$work/slurm.conf" >/dev/null 2>&1 || skip "slurmctld does not start ($(tail -n 2 "$work/slurmctld.log" 2>/dev/null))"
slurmd -f "$work/slurm.conf" >/dev/null 2>&1 || skip "slurmd does not start ($(tail -n 2 "$work/slurmd.log" 2>/dev/null))"
for _ in $(seq 30); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 1
done
sinfo -h -o %T 2>/dev/null | grep -q idle || skip "the node is not idle after 30 s"

# The campaign: 64 runs of about 0.3 s each (a node limit keeps them deterministic).
cd "$work"
"$CSP" random model-b --n 40 --d 10 --p1 0.3 --p2 0.3 --count 8 --out instances >/dev/null ||
    fail "csp random"
export CSP INSTANCES="$work/instances" RESULTS="$work/results" STRATEGIES=static/asc/none,mrv/asc/fc
export SEEDS=0..3 NODE_LIMIT=1600000 TIMEOUT=60 PARTS=4
"$CSP" compare "$INSTANCES"/*.xml --strategies "$STRATEGIES" --seeds "$SEEDS" --tie-break random \
    --node-limit "$NODE_LIMIT" --timeout "$TIMEOUT" --format jsonl >reference.jsonl || fail "the unsharded run"

# Waits until no task of job $1 is left in the queue (at most $2 seconds). A requeued task
# waits for a begin time two minutes on (Slurm's rule): it is started at once instead, with a
# time limit of ten minutes (the second run of a part stopped by its time limit).
drain() {
    for _ in $(seq "$2"); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        squeue -h -j "$1" -t PD -o "%i %r" 2>/dev/null | awk '$2 == "BeginTime" {print $1}' |
            while read -r task; do
                scontrol update JobId="$task" TimeLimit=10 >/dev/null 2>&1
                scontrol update JobId="$task" StartTime=now >/dev/null 2>&1
            done
        sleep 1
    done
    return 1
}
mkdir -p results
# A program in csp's place whose first run of each part named in SLOW waits before csp starts,
# so that a signal finds that part running.
printf '%s\n' '#!/usr/bin/env bash' \
    "marker='$work/slowed-'\"\$SLURM_ARRAY_TASK_ID\"" \
    'case " $SLOW " in *" $SLURM_ARRAY_TASK_ID "*) [ -e "$marker" ] || { touch "$marker"; sleep 110; } ;; esac' \
    "exec '$CSP' \"\$@\"" >slow-csp
chmod +x slow-csp
job=$(CSP="$work/slow-csp" SLOW=2 sbatch --parsable --array=1-4 --cpus-per-task=1 --export=ALL \
    "$ROOT/scripts/campaign.sbatch") || skip "sbatch refused the array"
echo "== array job $job"
# Part 2 is signalled once it has run a second (scancel refuses a task not started yet).
for _ in $(seq 60); do
    [ "$(squeue -h -j "${job}_2" -o %T 2>/dev/null)" = RUNNING ] && break
    sleep 0.5
done
sleep 1
said=$(scancel --batch --signal=TERM "${job}_2" 2>&1) || echo "note: scancel said: $said"
drain "$job" 600 || skip "the array did not finish within 10 minutes ($(squeue -h 2>/dev/null | head -n 3))"
grep -q "requeued" results/slurm-"${job}"_2.log 2>/dev/null ||
    skip "part 2 was not stopped by scancel ($(tail -n 3 results/slurm-"${job}"_2.log 2>/dev/null))"

compare() {
    python3 - "$@" <<'PY'
import glob, json, os, sys
def load(files):
    out = []
    for f in files:
        for line in open(f):
            d = json.loads(line)
            d.pop("elapsed_ms", None)
            for k in ("file", "instance"):
                if isinstance(d.get(k), str):
                    d[k] = os.path.basename(d[k])
            out.append(json.dumps(d, sort_keys=True))
    return sorted(out)
parts, ref = load(sorted(glob.glob("results/part-*.jsonl"))), load(["reference.jsonl"])
if len(set(parts)) != len(parts):
    sys.exit("records repeated in the parts")
if parts != ref:
    sys.exit(f"the parts hold {len(parts)} records, the unsharded run {len(ref)}, and they differ")
print(f"{len(parts)} records, equal to the unsharded run's")
PY
}
compare || fail "after the stopped part resumed"

# Part 4 again, alone, from scratch: PARTS keeps it part 4 of 4. Its first run waits, so
# that the time limit's warning finds it running.
rm results/part-4.jsonl
job=$(CSP="$work/slow-csp" SLOW=4 sbatch --parsable --array=4 --time=1 --export=ALL "$ROOT/scripts/campaign.sbatch") ||
    skip "sbatch refused --array=4"
echo "== part 4 alone under a one-minute limit: job $job"
drain "$job" 300 || skip "part 4 did not finish within 5 minutes"
grep -q "requeued" results/slurm-"${job}"_4.log 2>/dev/null ||
    skip "part 4 was not stopped by its time limit's signal ($(tail -n 3 results/slurm-"${job}"_4.log 2>/dev/null))"
compare || fail "after part 4 ran again alone, stopped by its time limit"
echo "slurm test passed"
