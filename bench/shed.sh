#!/usr/bin/env bash
# shed.sh JAR LABEL [serve flags...]: private redis on a free port, Sluice on free ports, then
# bench rows: fw/tb x 1/4 descriptors x concurrency list. Prints one line per row.
set -u
JAR=$1; LABEL=$2; shift 2
W=$(mktemp -d "${TMPDIR:-/tmp}/sluice-shed.XXXXXX")
# The rules: fixed window and token bucket so high that nothing is ever over the limit.
mkdir -p "$W/rules"
cat >"$W/rules/bench.yaml" <<'EOF_RULES'
domain: bench
descriptors:
  - key: fw
    rate_limit: {unit: second, requests_per_unit: 100000000}
  - key: tb
    rate_limit: {unit: second, requests_per_unit: 100000000, algorithm: token_bucket, burst: 100000000}
EOF_RULES
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
RP=$(port)
redis-server --bind 127.0.0.1 --port $RP --save '' --appendonly no >$W/redis.log 2>&1 & RPID=$!
sleep 0.5
java -jar $JAR serve --config $W/rules --store redis --grpc-port 0 --http-port 0 --redis-url redis://127.0.0.1:$RP "$@" >$W/sluice.log 2>&1 & SPID=$!
for i in $(seq 1 90); do grep -q "Sluice ready" $W/sluice.log && break; sleep 1; done
READY=$(grep -m1 "Sluice ready" $W/sluice.log)
GP=$(sed -E 's/.*grpc port ([0-9]+).*/\1/' <<<"$READY"); HP=$(sed -E 's/.*http port ([0-9]+).*/\1/' <<<"$READY")
# warm the JIT, unmeasured
java -jar $JAR bench --target 127.0.0.1:$GP --concurrency 64 --duration ${SERVER_WARMUP:-8s} --warmup 0s --domain bench --descriptor fw= --descriptors-per-request 4 >/dev/null 2>&1
for row in ${ROWS:-fw:1:64 tb:1:64 fw:4:64 tb:4:64 fw:1:512 tb:1:512 fw:4:512 tb:4:512}; do
  IFS=: read d m c r <<<"$row"
  out=$(java -jar $JAR bench --target 127.0.0.1:$GP --concurrency $c --rate ${r:-0} --duration ${DURATION:-8s} --warmup 2s --domain bench --descriptor $d= --descriptors-per-request $m --json 2>$W/bench-$d-$m-$c.err)
  load=$(cut -d' ' -f1 /proc/loadavg)
  echo "$LABEL $d desc=$m conc=$c rate=${r:-closed} load=$load $(python3 -c 'import json,sys;j=json.loads(sys.argv[1]);print("ok=%d over=%d errors=%d dec/s=%.0f p50=%.2fms p99=%.2fms"%(j["ok"],j["over_limit"],j["errors"],j["decisions_per_s"],j["p50_us"]/1000,j["p99_us"]/1000))' "$out") $(grep -o 'errors.*' $W/bench-$d-$m-$c.err | head -1 | cut -c1-150)"
  curl -s http://127.0.0.1:$HP/metrics | grep -E "^sluice_store_shed_total" | tr '\n' ' '; echo
done
curl -s http://127.0.0.1:$HP/metrics | grep -E "^sluice_store_(shed|errors)|^sluice_circuit_breaker_transitions_total" | tr '\n' ' '; echo
kill $SPID; wait $SPID 2>/dev/null; kill $RPID; wait $RPID 2>/dev/null; rm -rf "$W"
