#!/usr/bin/env bash
# What one decision costs Redis, per command shape Sluice sends, beside the reference service's
# pipelined INCRBY + EXPIRE: Redis's own INFO commandstats (usec_per_call of the top-level
# commands, summed per decision) and redis-server's CPU per decision (utime + stime from
# /proc/PID/stat over the run, so parsing and networking are in it too).
#
# A private redis-server runs on a free port pinned to one CPU (never the machine's 6379). The
# driver (bench/redis_cost.py, raw RESP over one connection, on another CPU) sends exactly the
# commands Sluice's store queues for each shape, on random keys, BATCH decisions per round trip
# (Sluice's lanes put many requests in one pipeline under load), so every shape is measured with
# the same batching and the same client; only Redis's work differs:
#
#   reference   INCRBY k 1; EXPIRE k 60                          (envoyproxy/ratelimit's shape)
#   fw          MULTI; INCRBY k 1; PEXPIRE k 60000 NX; EXEC      (Sluice fixed window)
#   fw-script   EVALSHA of the former lua/fixed_window.lua       (for comparison; git history)
#   tb          EVALSHA lua/token_bucket.lua, one call per round trip carrying its BATCH hits
#               (Sluice token bucket on one node: a lane combines a batch's hits into one call)
#   tb-single   EVALSHA lua/token_bucket.lua, one call per hit   (Sluice token bucket on a cluster)
#   tb-hash     EVALSHA of the former hash-based token bucket    (for comparison; git history)
#   tb-over, tb-hash-over   the same two on 100 used-up buckets: refused takes (the new one
#               writes nothing then)
#   sw          EVALSHA lua/sliding_window.lua, one call per round trip carrying its BATCH hits
#               (Sluice sliding window on one node; sw-single: one call per hit, a cluster's)
#   charge      EVALSHA lua/charge.lua, a rate_limits list of two fixed windows (one decision)
#   charge-tb   EVALSHA lua/charge.lua, one token bucket with charge_denied: false
#
# A `synced` fixed window sends the fw shape once per counter per sync interval (with the delta
# as its increment), not once per decision.
#
# Usage: bench/redis-cost.sh
# Env:   DECISIONS=200000 per shape  BATCH=16 decisions per round trip  KEYS=100000 random keys
#        ROUNDS=3 (each shape's best round is printed: load from other processes only inflates both
#        figures, commandstats most, as it times wall clock)
#        SHAPES="reference fw fw-script tb tb-single tb-hash tb-over tb-hash-over sw sw-single charge
#        charge-tb"
#        REDIS_CPU=1 DRIVER_CPU=0
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
DECISIONS=${DECISIONS:-200000}
BATCH=${BATCH:-16}
KEYS=${KEYS:-100000}
ROUNDS=${ROUNDS:-3}
SHAPES=${SHAPES:-reference fw fw-script tb tb-single tb-hash tb-over tb-hash-over sw sw-single charge charge-tb}
REDIS_CPU=${REDIS_CPU:-1}
DRIVER_CPU=${DRIVER_CPU:-0}
WORK=$(mktemp -d)
REDIS_PID=
cleanup() {
  [[ -n $REDIS_PID ]] && kill "$REDIS_PID" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
die() { echo "redis-cost.sh: $*" >&2; exit 1; }
command -v redis-server >/dev/null || die "redis-server not found"

# The former scripts, from git history, for the comparison rows.
FORMER=ccd4241 # the last commit with both former scripts
git show "$FORMER:src/main/resources/lua/fixed_window.lua" >"$WORK/fixed_window_script.lua" 2>/dev/null ||
  die "cannot read the former fixed_window.lua from git ($FORMER)"
git show "$FORMER:src/main/resources/lua/token_bucket.lua" >"$WORK/token_bucket_hash.lua"

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
taskset -c "$REDIS_CPU" redis-server --port "$PORT" --bind 127.0.0.1 --save '' --appendonly no \
  --dir "$WORK" --daemonize no --loglevel warning >"$WORK/redis.log" 2>&1 &
REDIS_PID=$!
for _ in $(seq 1 50); do
  redis-cli -p "$PORT" ping >/dev/null 2>&1 && break
  sleep 0.1
done
redis-cli -p "$PORT" ping >/dev/null || die "redis-server did not start: $(cat "$WORK/redis.log")"

echo "# $(date -u +%FT%TZ)  $(redis-server --version | cut -d' ' -f3)  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# redis on CPU $REDIS_CPU, driver on CPU $DRIVER_CPU; $DECISIONS decisions per shape, $BATCH per round trip, $KEYS random keys"
taskset -c "$DRIVER_CPU" python3 "$ROOT/bench/redis_cost.py" \
  --port "$PORT" --pid "$REDIS_PID" --decisions "$DECISIONS" --batch "$BATCH" --keys "$KEYS" --rounds "$ROUNDS" \
  --lua "$ROOT/src/main/resources/lua" --former "$WORK" $SHAPES
