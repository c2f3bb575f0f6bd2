#!/usr/bin/env bash
# Sluice's embedded limiter (dev.sluice.embed, fixed window and token bucket) against Bucket4j's
# Jedis bucket (CAS) and Redisson's RRateLimiter, in ONE JVM on ONE private redis-server, printed
# as ONE table (dev.sluice.peer.EmbeddedComparison). Every peer runs with its own defaults
# (Sluice: 2 connections, 100 ms timeout, no local cache; Bucket4j: one pooled Jedis connection
# per thread; Redisson: a pool of max(threads, 64) connections).
#
# Rows: each peer x scenario x thread count, closed loop (each caller waits for its answer):
#   random keys, all allowed   a fresh random key per decision, limit 1e9/s
#   random keys, half refused  fresh random keys in back-to-back PAIRS on a 1-per-second limit: the
#                              first of a pair is allowed, the second refused, so half are refused
#                              whatever a peer's speed (a pair straddling a second boundary of a
#                              fixed window is allowed twice: rare, visible in "refused %")
#   hot key, all allowed       one key, limit 1e9/s
#   hot key, half refused      decisions alternate between an open hot key (1e9/s) and a used-up
#                              hot key (1 per hour, spent in the warmup): exactly half refused
# Redisson has no per-key limiter without state: each random key costs a trySetRate (one more
# round trip) before its tryAcquire, as a service with per-key limits must; hot keys are set once.
# Columns: decisions/s; p50/p99 per decision; Redis CPU per decision (INFO used_cpu_sys+user
# delta over the measured window); reads/dec = INFO total_reads_processed delta per decision
# (a read is one request arriving on a socket: the round trips, however many commands each
# holds); cmds/dec = total_commands_processed delta; client CPU = the whole benchmark JVM;
# xbucket4j / xredisson = a Sluice row's decisions/s over that peer's in the same row group.
# Each row starts on an empty Redis (FLUSHALL) with a fresh limiter.
#
# Usage: bench/embedded.sh     (from anywhere; builds target/benchmarks.jar when sources are newer)
# Env:   DURATION=10s WARMUP=3s (per row)  THREADS="8 32 64"
#        PEERS="sluice-fixed-window sluice-token-bucket bucket4j redisson"
#        SCENARIOS="RANDOM_ALLOWED RANDOM_HALF HOT_ALLOWED HOT_HALF"  SKIP_BUILD=1
# A full run is peers x scenarios x threads rows of WARMUP+DURATION (+~1 s setup): 4x4x3 rows
# of 14 s, about 12 minutes with the defaults. Redis on 6379 is never touched.
set -euo pipefail

cd "$(dirname "$0")/.."

seconds() { # "10s" or "10" -> 10
  local value=${1%s}
  [[ $value =~ ^[0-9]+$ ]] || { echo "embedded: not a whole number of seconds: $1" >&2; exit 2; }
  echo "$value"
}
DURATION_S=$(seconds "${DURATION:-10s}")
WARMUP_S=$(seconds "${WARMUP:-3s}")
THREADS=${THREADS:-8 32 64}
PEERS=${PEERS:-sluice-fixed-window sluice-token-bucket bucket4j redisson}
SCENARIOS=${SCENARIOS:-RANDOM_ALLOWED RANDOM_HALF HOT_ALLOWED HOT_HALF}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sluice-embedded.XXXXXX")
REDIS_PID=

log() { printf '[embedded %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

cleanup() {
  local status=$?
  if [[ -n $REDIS_PID ]]; then
    kill -TERM "$REDIS_PID" 2>/dev/null || true
    wait "$REDIS_PID" 2>/dev/null || true
  fi
  if ((status != 0)); then
    log "failed; logs kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for tool in java mvn redis-server redis-cli awk; do
  command -v "$tool" >/dev/null || die "$tool is not on PATH"
done

# shellcheck source=bench/lib/common.sh
source bench/lib/common.sh # free_port

if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  if [[ ! -f target/benchmarks.jar ]] || [[ -n $(find src pom.xml -newer target/benchmarks.jar -print -quit) ]]; then
    log "building target/benchmarks.jar"
    mvn -B -q -P bench -DskipTests package >"$WORK/build.log" 2>&1 || die "bench build failed: $WORK/build.log"
  fi
fi

PORT=$(free_port)
redis-server --bind 127.0.0.1 --port "$PORT" --save '' --appendonly no >"$WORK/redis.log" 2>&1 &
REDIS_PID=$!
deadline=$((SECONDS + 20))
until redis-cli -p "$PORT" ping >/dev/null 2>&1; do
  ((SECONDS < deadline)) || die "redis-server on $PORT not ready after 20s"
  sleep 0.2
done
log "redis-server on port $PORT; rows: peers [$PEERS] x scenarios [$SCENARIOS] x threads [$THREADS]"

start_load=$(cut -d' ' -f1-3 /proc/loadavg)
java -cp target/benchmarks.jar dev.sluice.peer.EmbeddedComparison \
  --redis "redis://127.0.0.1:$PORT" \
  --threads "$(echo $THREADS | tr ' ' ',')" \
  --peers "$(echo $PEERS | tr ' ' ',')" \
  --scenarios "$(echo $SCENARIOS | tr ' ' ',')" \
  --duration-s "$DURATION_S" --warmup-s "$WARMUP_S" 2>"$WORK/run.log" >"$WORK/table.txt" ||
  { tail -20 "$WORK/run.log" >&2; die "comparison failed"; }
end_load=$(cut -d' ' -f1-3 /proc/loadavg)

cat "$WORK/table.txt"
grep -E '^errors:' "$WORK/run.log" || true
echo
echo "machine: $(nproc) cores, $(lscpu 2>/dev/null | awk -F: '/Model name/{gsub(/^ +/,"",$2); print $2; exit}'), $(free -g | awk '/^Mem:/{print $2}') GiB memory; java: $(java -version 2>&1 | head -1); redis: $(redis-server --version | awk '{print $3}'); sluice: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "settings: duration ${DURATION_S}s, warmup ${WARMUP_S}s per row, threads $THREADS"
echo "load average before: $start_load; after: $end_load"
