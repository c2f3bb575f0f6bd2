#!/usr/bin/env bash
# RLQS against the RLS consistency modes on the same traffic, run by hand (never part of verify):
#   2 Sluice instances (--instances 2, --rlqs-report-interval 1s) on one private redis-server (free
#   port; 6379 is never touched), one rule of LIMIT per second per kind (exact, synced, split,
#   rlqs), and the same clients for each: DEMANDS requests per second, client i on instance i % 2.
#   Each kind runs twice: steady demand, then a demand shift at SHIFT_AT seconds to SHIFT_DEMANDS.
#   The clients are bench/RlqsCompare.java (RLS callers in real time, or simulated Envoys), run
#   from source against target/sluice.jar. Redis commands: the sum of INFO commandstats calls over
#   the run plus 2 s (scripts' inner commands included, the INFO calls themselves not), per
#   admitted request; RLQS's are its demand exchange, whatever the traffic.
#
# Usage: bench/rlqs-compare.sh   (from anywhere; builds target/sluice.jar when sources are newer)
# Env:   DEMANDS=120,60,15,5 LIMIT=100 SECONDS_PER_RUN=30 SHIFT_AT=15 SHIFT_DEMANDS=20,60,15,80
#        KINDS="exact synced split rlqs" SYNC_INTERVAL=200ms IDLE_SECONDS=10 SKIP_BUILD=1
# Logs (per-second lines of each run, the servers') are kept in the printed work directory.
# Every process started here is stopped on exit.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
DEMANDS=${DEMANDS:-120,60,15,5}
LIMIT=${LIMIT:-100}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-30}
SHIFT_AT=${SHIFT_AT:-15}
SHIFT_DEMANDS=${SHIFT_DEMANDS:-20,60,15,80}
KINDS=${KINDS:-exact synced split rlqs}
SYNC_INTERVAL=${SYNC_INTERVAL:-200ms}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sluice-rlqs-compare.XXXXXX")
PIDS=()

log() { printf '[rlqs-compare %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}
alive() { [[ -r /proc/$1/stat ]] && [[ $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) != Z ]]; }
stop_pid() {
  local pid=$1
  if alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      alive "$pid" || break
      sleep 0.2
    done
    alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local status=$?
  for pid in "${PIDS[@]}"; do
    stop_pid "$pid"
  done
  if ((status != 0)); then log "failed; logs kept in $WORK"; else log "logs in $WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for tool in java mvn redis-server redis-cli awk; do
  command -v "$tool" >/dev/null || die "$tool is not on PATH"
done

# shellcheck source=bench/lib/common.sh
source bench/lib/common.sh
ensure_jar

mkdir -p "$WORK/rules"
{
  echo "domain: bench"
  echo "descriptors:"
  for kind in exact synced split rlqs; do
    consistency=""
    [[ $kind == synced || $kind == split ]] && consistency=", consistency: $kind"
    printf '  - key: mode\n    value: %s\n    descriptors:\n      - key: run\n' "$kind"
    printf '        rate_limit: {unit: second, requests_per_unit: %s%s}\n' "$LIMIT" "$consistency"
  done
} >"$WORK/rules/bench.yaml"

REDIS_PORT=$(free_port)
start_bg redis redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no
wait_for "redis-server on $REDIS_PORT" 20 redis-cli -p "$REDIS_PORT" ping

ports=()
for i in 1 2; do
  start_bg "sluice-$i" java -jar "$JAR" serve --config "$WORK/rules" --store redis \
    --redis-url "redis://127.0.0.1:$REDIS_PORT" --redis-timeout 100ms --grpc-port 0 --http-port 0 \
    --instances 2 --sync-interval "$SYNC_INTERVAL" --rlqs-report-interval 1s \
    --rlqs-assignment-ttl 3s
done
for i in 1 2; do
  wait_for "sluice $i" 90 grep -q "Sluice ready" "$WORK/sluice-$i.log"
  ports+=("$(grep -m1 "Sluice ready" "$WORK/sluice-$i.log" | sed -E 's/.*grpc port ([0-9]+).*/\1/')")
done
PORTS=$(
  IFS=,
  echo "${ports[*]}"
)
log "fleet up: grpc ports $PORTS, redis $REDIS_PORT"

# Sum of calls over INFO commandstats, without INFO itself.
commands() {
  redis-cli -p "$REDIS_PORT" info commandstats | tr -d '\r' |
    awk -F'[:=,]' '/^cmdstat_/ && $1 != "cmdstat_info" {s += $3} END {print s + 0}'
}

drive() { # drive KIND RUN SECONDS [SHIFT]
  java -cp "$JAR" "$ROOT/bench/RlqsCompare.java" "$1" "$PORTS" "$DEMANDS" "$3" "$LIMIT" "$2" \
    ${4:+"$4"}
}

log "warming every kind for 5 s (JIT, connections)"
for kind in $KINDS; do
  drive "$kind" "warmup-$$" 5 >/dev/null 2>&1
done

# What the fleet sends Redis with no client at all (health checks, the split heartbeat, empty
# RLQS turns): every row's command count includes it.
sleep 2
idle_before=$(commands)
sleep "${IDLE_SECONDS:-10}"
idle_after=$(commands)
log "idle fleet: $(((idle_after - idle_before) / ${IDLE_SECONDS:-10})) Redis commands/s"
uptime >&2
printf 'kind\tshift\tadmitted\tdenied\tconverged_s\tafter_per_s\ttarget_per_s\tfalse_denials\tover_admitted\tworst_second\tshares_last5s\terrors\tredis_cmds\tcmds_per_admitted\n'
run=0
for shift in none "$SHIFT_AT:$SHIFT_DEMANDS"; do
  for kind in $KINDS; do
    run=$((run + 1))
    log "run $run: $kind, shift $shift"
    sleep 2 # the previous run's last syncs and exchanges land before counting
    before=$(commands)
    if [[ $shift == none ]]; then
      line=$(drive "$kind" "run$run-$$" "$SECONDS_PER_RUN" 2>"$WORK/run$run-$kind.log")
    else
      line=$(drive "$kind" "run$run-$$" "$SECONDS_PER_RUN" "$shift" 2>"$WORK/run$run-$kind.log")
    fi
    sleep 2
    after=$(commands)
    admitted=$(cut -f1 <<<"$line")
    printf '%s\t%s\t%s\t%s\t%s\n' "$kind" "$shift" "$line" "$((after - before))" \
      "$(awk -v c=$((after - before)) -v a="$admitted" 'BEGIN {printf "%.3f", a ? c / a : 0}')"
  done
done
uptime >&2
