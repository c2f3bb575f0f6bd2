#!/usr/bin/env bash
# The pinned gRPC rows with an independent load generator: h2load (Debian nghttp2-client, a C
# HTTP/2 benchmarker spending ~3 us per request, a third of `sluice bench`), so a ratio between
# two rows measures the servers and not the generator.
#
# Every row sends the same unary ShouldRateLimit (one hot key, or 4 descriptors) with
# `grpc-timeout: 20m`, as Envoy's filter does, closed loop (CLIENTS connections x STREAMS
# concurrent streams). h2load runs on CPU 0; every server (bench-server, Sluice, redis-server) on
# CPU 1. Per row: req/s, the server JVM's CPU per decision and redis-server's CPU per decision
# (both from /proc/PID/stat deltas over h2load's measured window, so the warm-up is excluded), and
# Redis's usec_per_call of each command from INFO commandstats over the same window. A "decision"
# is one descriptor: a 4-descriptor request is 4.
#
# h2load does not read gRPC trailers, so it cannot tell OK from an error status; each row's
# limit is far above its rate, and the script checks Sluice's own counters afterwards
# (store errors, sheds and failure-policy answers) so a row whose answers were errors is flagged.
#
# The JIT: after the warm-up, short loaded rounds (SETTLE s each, at most SETTLE_ROUNDS) run until
# the JVM's compiler threads spend under 1 % of a round, so compilation does not land in the
# measured window (a row measured while C2 still compiled read up to 5x its steady CPU); the JIT
# CPU left inside the window is printed per row.
#
# Usage: bench/h2load.sh                 builds target/sluice.jar when missing
# Env:   DURATION=8 (s)  WARMUP=20 (s, per row: the JIT takes 20 s and more here)
#        CLIENTS=2  STREAMS=64  ROWS="nothing-default nothing-tuned memory-tb memory-fw redis-fw
#        redis-tb redis-tb4 redis-fw4 redis-sw redis-ml"
#        SETTLE=3 (s)  SETTLE_ROUNDS=10
#        SERVER_JAVA_OPTS (default: the image's -X options, deploy/image/jvm.options)
#        JAR (default target/sluice.jar; another build, e.g. bench/ablation/'s, for a paired run)
# Never touches a Redis on 6379: a private redis-server runs on a free port.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
DURATION=${DURATION:-8}
WARMUP=${WARMUP:-20}
CLIENTS=${CLIENTS:-2}
STREAMS=${STREAMS:-64}
ROWS=${ROWS:-nothing-default nothing-tuned memory-tb memory-fw redis-fw redis-tb redis-tb4 redis-fw4 redis-sw redis-ml}
SETTLE=${SETTLE:-3}
SETTLE_ROUNDS=${SETTLE_ROUNDS:-10}
JAR=${JAR:-$ROOT/target/sluice.jar}
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]:-}"; do [[ -n $p ]] && kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
die() { echo "h2load.sh: $*" >&2; exit 1; }
command -v h2load >/dev/null || die "h2load not found: apt-get install -y nghttp2-client"
command -v redis-server >/dev/null || die "redis-server not found"
if [[ ! -f $JAR ]]; then
  [[ $JAR == "$ROOT/target/sluice.jar" ]] || die "$JAR not found"
  mvn -B -q -DskipTests package
fi
if [[ -z ${SERVER_JAVA_OPTS+x} ]]; then
  SERVER_JAVA_OPTS=$(grep -E '^-X' deploy/image/jvm.options | tr '\n' ' ')
fi
read -r -a JOPTS <<<"$SERVER_JAVA_OPTS"
GEN=(taskset -c 0)
SRV=(taskset -c 1)

# shellcheck source=bench/lib/common.sh
source bench/lib/common.sh # free_port, wait_for, grpc_request_body, jit_ticks, settle_jit, TICK
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

write_rules() {
  mkdir -p "$WORK/rules"
  cat >"$WORK/rules/bench.yaml" <<'EOF'
domain: bench
descriptors:
  - key: fw
    rate_limit: {name: fixed-window, unit: second, requests_per_unit: 1000000000}
  - key: tb
    rate_limit: {name: token-bucket, unit: second, requests_per_unit: 1000000000, algorithm: token_bucket, burst: 1000000000}
  - key: sw
    rate_limit: {name: sliding-window, unit: second, requests_per_unit: 1000000000, algorithm: sliding_window}
  - key: ml
    rate_limits:
      - {name: per-second, unit: second, requests_per_unit: 1000000000}
      - {name: per-hour, unit: hour, requests_per_unit: 4000000000}
EOF
}

start_redis() {
  REDIS_PORT=$(free_port)
  "${SRV[@]}" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
    >"$WORK/redis.log" 2>&1 &
  REDIS_PID=$!
  PIDS+=("$REDIS_PID")
  wait_for "redis-server" 20 redis-cli -p "$REDIS_PORT" ping
}

# start_server ROW: sets SRV_PID and GRPC_PORT (and HTTP_PORT for Sluice rows)
start_server() {
  GRPC_PORT=$(free_port) HTTP_PORT=$(free_port)
  case $1 in
    nothing-*)
      "${SRV[@]}" java "${JOPTS[@]}" -jar "$JAR" bench-server --port "$GRPC_PORT" \
        --transport "${1#nothing-}" >"$WORK/server.log" 2>&1 &
      ;;
    memory-*)
      "${SRV[@]}" java "${JOPTS[@]}" -jar "$JAR" serve --config "$WORK/rules" \
        --grpc-port "$GRPC_PORT" --http-port "$HTTP_PORT" >"$WORK/server.log" 2>&1 &
      ;;
    redis-*)
      "${SRV[@]}" java "${JOPTS[@]}" -jar "$JAR" serve --config "$WORK/rules" --store redis \
        --redis-url "redis://127.0.0.1:$REDIS_PORT" --grpc-port "$GRPC_PORT" \
        --http-port "$HTTP_PORT" >"$WORK/server.log" 2>&1 &
      ;;
  esac
  SRV_PID=$!
  PIDS+=("$SRV_PID")
  wait_for "$1 (log: $WORK/server.log)" 60 bash -c "exec 3<>/dev/tcp/127.0.0.1/$GRPC_PORT"
}

row_shape() { # ROW -> "KEY N"
  case $1 in
    *-fw4) echo "fw 4" ;; *-tb4) echo "tb 4" ;;
    nothing-*|*-fw) echo "fw 1" ;; *-tb) echo "tb 1" ;;
    *-sw) echo "sw 1" ;; *-ml) echo "ml 1" ;;
    *) die "unknown row $1" ;;
  esac
}

run_h2load() { # BODY SECONDS WARMUP -> h2load output
  "${GEN[@]}" h2load -c "$CLIENTS" -m "$STREAMS" -D "$2" --warm-up-time="$3" -d "$1" \
    -H 'content-type: application/grpc' -H 'te: trailers' -H 'grpc-timeout: 20m' \
    "http://127.0.0.1:$GRPC_PORT/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit"
}

commandstats() { redis-cli -p "$REDIS_PORT" info commandstats | tr -d '\r' | grep '^cmdstat_' || true; }

# usec per call of each command between two INFO commandstats snapshots
stats_delta() {
  awk -F'[:=,]' 'NR==FNR {c[$1]=$3; u[$1]=$5; next}
    {dc=$3-c[$1]; du=$5-u[$1]; if (dc>0) printf "%s %.2fus x%d; ", substr($1,9), du/dc, dc}' "$1" "$2"
}

printf '| row | req/s | server CPU us/decision (of it JIT) | Redis CPU us/decision | Redis commands (usec per call, calls) | errors seen by Sluice |\n'
printf '|---|---|---|---|---|---|\n'
write_rules
REDIS_PORT=""
for row in $ROWS; do
  read -r key n <<<"$(row_shape "$row")"
  [[ $row == redis-* && -z $REDIS_PORT ]] && start_redis
  start_server "$row"
  body=$WORK/$row.bin
  grpc_request_body "$body" "$key" "$n"
  run_h2load "$body" "$WARMUP" 0 >/dev/null 2>&1 || true # JIT warm-up, unmeasured
  settle_jit "$SRV_PID" "$SETTLE_ROUNDS" "$SETTLE" run_h2load "$body" "$SETTLE" 0
  j0=$(jit_ticks "$SRV_PID")
  [[ -n $REDIS_PORT ]] && commandstats >"$WORK/cs0"
  s0=$(cpu_ticks "$SRV_PID"); r0=0; [[ -n $REDIS_PORT ]] && r0=$(cpu_ticks "$REDIS_PID")
  out=$(run_h2load "$body" "$DURATION" 0 2>&1)
  s1=$(cpu_ticks "$SRV_PID"); r1=0; [[ -n $REDIS_PORT ]] && r1=$(cpu_ticks "$REDIS_PID")
  j1=$(jit_ticks "$SRV_PID")
  reqs=$(sed -nE 's/.*finished in .*, ([0-9.]+) req\/s.*/\1/p' <<<"$out")
  done_n=$(sed -nE 's/^requests: .* ([0-9]+) succeeded.*/\1/p' <<<"$out")
  [[ -n $reqs && -n $done_n && $done_n -gt 0 ]] || die "$row: h2load failed: $out"
  decisions=$((done_n * n))
  srv_us=$(awk -v d="$((s1 - s0))" -v t="$TICK" -v n="$decisions" 'BEGIN{printf "%.1f", d/t*1e6/n}')
  jit_us=$(awk -v d="$((j1 - j0))" -v t="$TICK" -v n="$decisions" 'BEGIN{printf "%.1f", d/t*1e6/n}')
  redis_us=- cmds=- errors=-
  if [[ $row == redis-* ]]; then
    commandstats >"$WORK/cs1"
    redis_us=$(awk -v d="$((r1 - r0))" -v t="$TICK" -v n="$decisions" 'BEGIN{printf "%.1f", d/t*1e6/n}')
    cmds=$(stats_delta "$WORK/cs0" "$WORK/cs1")
  fi
  if [[ $row != nothing-* ]]; then
    errors=$(curl -s "http://127.0.0.1:$HTTP_PORT/metrics" |
      awk '/^sluice_(store_errors|store_shed|failure_policy_decisions)_total/ {s+=$2} END {print s+0}')
  fi
  printf '| %s | %s | %s (%s) | %s | %s | %s |\n' "$row" "${reqs%.*}" "$srv_us" "$jit_us" "$redis_us" "$cmds" "$errors"
  kill "$SRV_PID"; wait "$SRV_PID" 2>/dev/null || true
done
echo
echo "h2load -c $CLIENTS -m $STREAMS, ${WARMUP}s warm-up then ${DURATION}s measured per row; h2load on CPU 0, servers and redis-server on CPU 1; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
