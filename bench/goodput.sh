#!/usr/bin/env bash
# Goodput under overload with Envoy's deadline: correct answers (OK or OVER_LIMIT, neither shed
# nor answered by the failure policy) delivered within the caller's deadline, per second.
#
# Sluice serves the Redis token bucket on one hot key (a private redis-server on a free port,
# never 6379), both pinned to CPU 1, with --failure-mode error so a failure-policy answer is an
# error the generator counts, not a disguised OK. The built-in generator runs on CPU 0: first
# closed loop (CONCURRENCY in flight) for the capacity, then open loop at each multiple of it in
# LOADS with --deadline on every call. Goodput counts from each call's send, as a gRPC deadline
# does. Afterwards Sluice's own counters say where the rest went: expired per stage, shed, failed.
#
# Usage: bench/goodput.sh [JAR]      (default target/sluice.jar, built when missing)
# Env:   DEADLINE=20ms  LOADS="2 4"  DURATION=8s  WARMUP=5s  CONCURRENCY=64  DESCRIPTORS=1
#        (descriptors per request: 4 lowers the server's capacity in requests/s, so that the
#        generator on its one core can offer 4x of it and still read every answer in time)
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=${1:-target/sluice.jar}
DEADLINE=${DEADLINE:-20ms}
LOADS=${LOADS:-2 4}
DURATION=${DURATION:-8s}
WARMUP=${WARMUP:-5s}
CONCURRENCY=${CONCURRENCY:-64}
DESCRIPTORS=${DESCRIPTORS:-1}
[[ -f $JAR ]] || mvn -B -q -DskipTests package
command -v redis-server >/dev/null || { echo "goodput.sh: redis-server not found" >&2; exit 1; }
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]:-}"; do [[ -n $p ]] && kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
REDIS_PORT=$(free_port) GRPC_PORT=$(free_port) HTTP_PORT=$(free_port)
mkdir "$WORK/rules"
cat >"$WORK/rules/bench.yaml" <<'YAML'
domain: bench
descriptors:
  - key: remote_address
    rate_limit: {unit: second, requests_per_unit: 100000000, algorithm: token_bucket}
YAML
taskset -c 1 redis-server --port "$REDIS_PORT" --save '' --appendonly no >"$WORK/redis.log" 2>&1 &
PIDS+=($!)
taskset -c 1 java -Xms512m -Xmx512m -jar "$JAR" serve --config "$WORK/rules" --store redis \
  --redis-url "redis://127.0.0.1:$REDIS_PORT" --grpc-port "$GRPC_PORT" --http-port "$HTTP_PORT" \
  --failure-mode error >"$WORK/serve.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 120); do curl -sf "http://127.0.0.1:$HTTP_PORT/healthcheck" >/dev/null && break; sleep 0.5; done
BENCH=(taskset -c 0 java -jar "$JAR" bench --target "127.0.0.1:$GRPC_PORT" --domain bench --keys hot --json
  --descriptors-per-request "$DESCRIPTORS")
field() { python3 -c "import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])['$1'])"; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"${BENCH[@]}" --concurrency "$CONCURRENCY" --duration "$DURATION" --warmup "$WARMUP" \
  2>/dev/null >"$WORK/closed.json"
CAP=$(field decisions_per_s <"$WORK/closed.json")
printf 'closed loop (concurrency %s): %.0f decisions/s\n' "$CONCURRENCY" "$CAP"
for x in $LOADS; do
  rate=$(python3 -c "print(int($CAP * $x))")
  echo "load average before ${x}x: $(cut -d' ' -f1-3 /proc/loadavg)"
  "${BENCH[@]}" --rate "$rate" --concurrency 4096 --channels 4 --duration "$DURATION" \
    --warmup 2s --deadline "$DEADLINE" 2>"$WORK/open-$x.txt" >"$WORK/open-$x.json"
  python3 - "$WORK/open-$x.json" "$x" "$CAP" <<'PY'
import json, sys
path, x, cap = sys.argv[1], sys.argv[2], float(sys.argv[3])
r = json.loads(open(path).read().strip().splitlines()[-1])
print(f"{x}x = {r['rate']:.0f}/s offered: answered {r['decisions_per_s']:.0f}/s, "
      f"goodput {r['goodput_per_s']:.0f}/s = {r['goodput_per_s'] / cap:.2f}x closed-loop capacity; "
      f"sent {r['sent']}, ok {r['ok']}, errors {r['errors']}, "
      f"p50 {r['p50_us'] / 1000:.1f} ms, p99 {r['p99_us'] / 1000:.1f} ms")
PY
  grep "errors by code" "$WORK/open-$x.txt" || true
done
echo "Sluice's counters over the whole run:"
curl -s "http://127.0.0.1:$HTTP_PORT/metrics" |
  grep -E '^sluice_(requests_expired_total|store_shed_total|failure_policy_decisions_total)' || true
