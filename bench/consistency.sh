#!/usr/bin/env bash
# The consistency-mode experiment of issue 10, run by hand (never part of verify):
#   3 Sluice instances on one private redis-server (free port; 6379 is never touched), a limit
#   of LIMIT per minute, TOTAL requests at a steady RATE per second routed to the instances
#   even (1/3 each), skewed (70/20/10) or one-hot (100/0/0), for each mode: exact, synced at
#   each of SYNC_INTERVALS, split. Per row: total allowed, false denials (refused although fewer
#   than LIMIT of the requests sent before it were allowed: what an ideal global limiter would
#   have let through), Redis commands and reads (~round trips) per decision (INFO stats deltas
#   over the run plus 1.5 s, heartbeats and syncs included, divided by TOTAL), and p50/p99
#   latency from each request's due time (open loop).
#   The load generator is bench/ConsistencyExperiment.java, run from source against
#   target/sluice.jar; each run waits until it fits inside one minute window.
#
# Usage: bench/consistency.sh        (from anywhere; builds target/sluice.jar when sources are newer)
# Env:   RATE=250 TOTAL=5000 LIMIT=1000 SYNC_INTERVALS="50ms 200ms 1s" PATTERNS="even skewed onehot"
#        WARMUP=2500 (unmeasured requests per mode on each new fleet)
#        REDIS_TIMEOUT=100ms (the 10ms default times out on a loaded 2-core machine; see
#        BENCHMARKS.md) SKIP_BUILD=1 to use the jar as it is.
# Every process started here is stopped on exit.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
RATE=${RATE:-250}
TOTAL=${TOTAL:-5000}
LIMIT=${LIMIT:-1000}
SYNC_INTERVALS=${SYNC_INTERVALS:-50ms 200ms 1s}
PATTERNS=${PATTERNS:-even skewed onehot}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sluice-consistency.XXXXXX")
PIDS=()

log() { printf '[consistency %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
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
    if alive "$pid"; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local status=$?
  for pid in "${PIDS[@]}"; do
    stop_pid "$pid"
  done
  if ((status != 0)); then
    log "failed; logs kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for tool in java mvn redis-server redis-cli curl awk; do
  command -v "$tool" >/dev/null || die "$tool is not on PATH"
done

# shellcheck source=bench/lib/common.sh
source bench/lib/common.sh
ensure_jar

mkdir -p "$WORK/rules"
rule() { # rule MODE [CONSISTENCY]
  printf '  - key: mode\n    value: %s\n    descriptors:\n      - key: run\n' "$1"
  printf '        rate_limit: {unit: minute, requests_per_unit: %s%s}\n' "$LIMIT" \
    "${2:+, consistency: $2}"
}
{
  echo "domain: bench"
  echo "descriptors:"
  rule exact
  rule synced synced
  rule split split
} >"$WORK/rules/bench.yaml"

REDIS_PORT=$(free_port)
start_bg redis redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no
wait_for "redis-server on $REDIS_PORT" 20 redis-cli -p "$REDIS_PORT" ping

FLEET=()
start_fleet() { # start_fleet SYNC_INTERVAL -> FLEET (pids), GRPC_PORTS (comma-separated)
  local interval=$1 ports=() i ready
  FLEET=()
  for i in 1 2 3; do
    start_bg "sluice-$interval-$i" java -jar "$JAR" serve --config "$WORK/rules" --store redis \
      --redis-url "redis://127.0.0.1:$REDIS_PORT" --redis-timeout "${REDIS_TIMEOUT:-100ms}" \
      --grpc-port 0 --http-port 0 --sync-interval "$interval" --instances 3
    FLEET+=("$BG_PID")
  done
  for i in 1 2 3; do
    wait_for "sluice $i" 90 grep -q "Sluice ready" "$WORK/sluice-$interval-$i.log"
    ready=$(grep -m1 "Sluice ready" "$WORK/sluice-$interval-$i.log")
    ports+=("$(sed -E 's/.*grpc port ([0-9]+).*/\1/' <<<"$ready")")
  done
  GRPC_PORTS=$(
    IFS=,
    echo "${ports[*]}"
  )
}
stop_fleet() {
  local pid
  for pid in "${FLEET[@]}"; do
    stop_pid "$pid"
  done
}

# "commands reads": Redis counts each command a script runs (the fixed window's EVALSHA is 3:
# EVALSHA, INCRBY, PEXPIRE); reads are socket reads, about one per pipeline (round trip).
commands() {
  redis-cli -p "$REDIS_PORT" info stats | awk -F: '/^total_commands_processed:/{gsub(/\r/,"",$2); c=$2}
    /^total_reads_processed:/{gsub(/\r/,"",$2); r=$2} END{print c, r}'
}

RUN=0
RESULTS=$WORK/results.tsv
: >"$RESULTS"
measure() { # measure LABEL MODE PATTERN
  local label=$1 mode=$2 pattern=$3 line cmd_before reads_before cmd_after reads_after
  RUN=$((RUN + 1))
  log "run $RUN: $label, $pattern"
  # Let the previous run's last syncs and warm-up land before counting commands.
  sleep 1.5
  read -r cmd_before reads_before < <(commands)
  line=$(java -cp "$JAR" "$ROOT/bench/ConsistencyExperiment.java" "$mode" "$pattern" \
    "$GRPC_PORTS" "$RATE" "$TOTAL" "$LIMIT" "run$RUN-$$")
  sleep 1.5 # the deltas of the run's last interval (1 s at most) reach Redis
  read -r cmd_after reads_after < <(commands)
  printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$pattern" "$line" "$((cmd_after - cmd_before))" \
    "$((reads_after - reads_before))" >>"$RESULTS"
}

# warm MODE...: WARMUP requests per mode at RATE, round robin, on throwaway counters, so the first
# measured row does not pay for the fleet's JIT compilation (measured: the first row after a cold
# start had a p50 of seconds and timeouts).
warm() {
  local mode
  for mode in "$@"; do
    java -cp "$JAR" "$ROOT/bench/ConsistencyExperiment.java" "$mode" even "$GRPC_PORTS" "$RATE" \
      "${WARMUP:-2500}" "$LIMIT" "warmup-$mode-$$-$RANDOM" warmup
  done
}

for interval in $SYNC_INTERVALS; do
  start_fleet "$interval"
  log "fleet up (sync interval $interval): grpc ports $GRPC_PORTS; warming"
  if [[ $interval == "${SYNC_INTERVALS%% *}" ]]; then
    warm exact synced split
  else
    warm synced
  fi
  first=0
  [[ $interval == "${SYNC_INTERVALS%% *}" ]] && first=1
  for pattern in $PATTERNS; do
    ((first)) && measure exact exact "$pattern"
    measure "synced $interval" synced "$pattern"
    ((first)) && measure split split "$pattern"
  done
  stop_fleet
done

{
  echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "java: $(java -version 2>&1 | head -1); redis: $(redis-server --version | awk '{print $3}')"
  echo "rate $RATE/s, $TOTAL requests, limit $LIMIT/minute, 3 instances"
  echo
  echo "| mode | routing | allowed | false denials | Redis cmd/decision | Redis reads/decision | p50 ms | p99 ms | errors |"
  echo "|---|---|---|---|---|---|---|---|---|"
  sort -t$'\t' -k1,1 -s "$RESULTS" | awk -F'\t' -v total="$TOTAL" '{
    printf "| %s | %s | %d | %d | %.3f | %.3f | %.1f | %.1f | %d |\n", $1, $2, $3, $5, $10 / total,
      $11 / total, $7 / 1000, $8 / 1000, $6 }'
} | tee "$ROOT/target/consistency-results.md"
