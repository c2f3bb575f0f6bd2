#!/usr/bin/env bash
# Footprint and scale figures (issue 16 part 4), printed as ONE table:
#   - memory store heap bytes per active counter, fixed window and token bucket (MemoryFootprint)
#   - RuleSet.match with 10 / 1,000 / 100,000 rules in one domain, wildcards included (JMH)
#   - startup to ready and reload time with STARTUP_RULES rules; RSS at idle (memory store)
# Usage: bench/footprint.sh   (from the repository root; about 6 min with the defaults)
# Knobs (env):
#   SKIP_BUILD=1             use the jars already in target/
#   COUNTERS=1000000         counters in the memory-store measurement
#   FOOTPRINT_HEAP=1g        fixed heap of that measurement (Serial GC, so a full GC compacts)
#   ALGORITHMS="fixed_window token_bucket"   (sliding_window also works)
#   RULE_COUNTS=10,1000,100000   LOOKUPS=exact,wildcard,keyOnly,nested
#   JMH_WARMUP=3 JMH_ITER=5 JMH_TIME=1s   JMH iterations of the match benchmark
#   STARTUP_RULES=100000     rules of the startup/reload measurement (split over files, --merge-domains)
#   IDLE_WAIT=10             seconds after ready before VmRSS is read
#   JAVA_OPTS=               JVM flags for the served processes (default: none, the JVM's defaults)
# Smoke: COUNTERS=100000 RULE_COUNTS=10,1000 LOOKUPS=exact,keyOnly JMH_WARMUP=1 JMH_ITER=1 \
#        STARTUP_RULES=1000 IDLE_WAIT=2 bench/footprint.sh
set -euo pipefail
cd "$(dirname "$0")/.."
COUNTERS=${COUNTERS:-1000000}
FOOTPRINT_HEAP=${FOOTPRINT_HEAP:-1g}
RULE_COUNTS=${RULE_COUNTS:-10,1000,100000}
LOOKUPS=${LOOKUPS:-exact,wildcard,keyOnly,nested}
JMH_WARMUP=${JMH_WARMUP:-3}
JMH_ITER=${JMH_ITER:-5}
JMH_TIME=${JMH_TIME:-1s}
STARTUP_RULES=${STARTUP_RULES:-100000}
IDLE_WAIT=${IDLE_WAIT:-10}
JAVA_OPTS=${JAVA_OPTS:-}
W=$(mktemp -d /tmp/sluice-footprint.XXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$W"
}
trap cleanup EXIT

ROWS=()
row() { ROWS+=("$(printf '%-52s %14s  %s' "$1" "$2" "$3")"); }
now() { date +%s.%N; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
# Live objects' bytes: the class histogram runs a full GC first.
live_mib() { jcmd "$1" GC.class_histogram | awk '/^Total/ {printf "%.1f", $3 / 1048576}'; }

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  mvn -B -o -q package -DskipTests >"$W/build.log" 2>&1
  mvn -B -o -q -P bench -DskipTests package >>"$W/build.log" 2>&1
fi

# 1. Heap bytes per counter.
for algorithm in ${ALGORITHMS:-fixed_window token_bucket}; do
  read -r algorithm counters mb per keylen < <(java -Xms"$FOOTPRINT_HEAP" -Xmx"$FOOTPRINT_HEAP" \
    -XX:+UseSerialGC -cp target/benchmarks.jar dev.sluice.jmh.MemoryFootprint "$COUNTERS" "$algorithm")
  row "memory store $algorithm, $counters counters" "$per" "B/counter (heap $mb MB, key $keylen chars)"
done

# 2. Rule matching by rule count.
java -jar target/benchmarks.jar RuleMatchBenchmark -p rules="$RULE_COUNTS" -p lookup="$LOOKUPS" \
  -wi "$JMH_WARMUP" -i "$JMH_ITER" -w "$JMH_TIME" -r "$JMH_TIME" -f 1 \
  -rf csv -rff "$W/match.csv" >"$W/match.log" 2>&1
while IFS=, read -r lookup rules ns; do
  row "match $lookup, $rules rules" "$(awk -v n="$ns" 'BEGIN {printf "%.0f", 1e9 / n}')" \
    "decisions/s per thread ($(printf '%.1f' "$ns") ns each)"
done < <(python3 - "$W/match.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rows.sort(key=lambda r: (r["Param: lookup"], int(r["Param: rules"])))
for r in rows:
    print("%s,%s,%s" % (r["Param: lookup"], r["Param: rules"], r["Score"]))
EOF
)

# 3. Startup, reload, idle RSS.
port_line() { grep -m1 "Sluice ready" "$1"; }
# serve LOG ARGS...: starts Sluice, waits for its ready line; sets SPID, HP, READY_S.
serve() {
  local log=$1; shift
  local start; start=$(now)
  # shellcheck disable=SC2086
  java $JAVA_OPTS -jar target/sluice.jar serve --store memory --grpc-port 0 --http-port 0 \
    --admin-grpc-port 0 "$@" >"$log" 2>&1 &
  SPID=$!; PIDS+=("$SPID")
  for _ in $(seq 1 6000); do
    grep -q "Sluice ready" "$log" && break
    kill -0 "$SPID" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.02
  done
  READY_S=$(awk -v a="$start" -v b="$(now)" 'BEGIN {printf "%.2f", b - a}')
  HP=$(port_line "$log" | sed -E 's/.*http port ([0-9]+).*/\1/')
}
stop() { kill "$SPID"; wait "$SPID" 2>/dev/null || true; }

serve "$W/demo.log" --config config/rules
DEMO_READY=$READY_S
sleep "$IDLE_WAIT"
row "startup to ready, demo rules (config/rules)" "$DEMO_READY" "s"
row "RSS at idle, demo rules, ${IDLE_WAIT}s after ready" "$(( $(rss_kb "$SPID") / 1024 ))" "MiB"
row "live heap, demo rules" "$(live_mib "$SPID")" "MiB (after a full GC: what the RSS holds beyond garbage)"
stop

java -cp target/benchmarks.jar dev.sluice.jmh.ScaledRules "$STARTUP_RULES" "$W/rules" 100
openssl rand -hex 16 >"$W/token"
serve "$W/scaled.log" --config "$W/rules" --merge-domains --admin-token-file "$W/token" \
  --reload-interval 1h
LOADED=$(port_line "$W/scaled.log" | sed -E 's/.* ([0-9]+) rules .*/\1/')
[[ $LOADED == "$STARTUP_RULES" ]] || { echo "served $LOADED rules, not $STARTUP_RULES" >&2; exit 1; }
row "startup to ready, $STARTUP_RULES rules" "$READY_S" "s"
sleep "$IDLE_WAIT"
row "RSS at idle, $STARTUP_RULES rules, ${IDLE_WAIT}s after ready" "$(( $(rss_kb "$SPID") / 1024 ))" "MiB"
row "live heap, $STARTUP_RULES rules" "$(live_mib "$SPID")" "MiB (after a full GC)"
# One rule changes; POST /rules/reload answers once the new set is compiled and swapped in.
java -cp target/benchmarks.jar dev.sluice.jmh.ScaledRules "$STARTUP_RULES" "$W/rules" 200
OUT=$(curl -s -o "$W/reload.json" -w '%{http_code} %{time_total}' -X POST \
  -H "Authorization: Bearer $(cat "$W/token")" "http://127.0.0.1:$HP/rules/reload")
grep -q RELOADED "$W/reload.json" || { echo "reload: $OUT $(cat "$W/reload.json")" >&2; exit 1; }
row "reload (POST /rules/reload), $STARTUP_RULES rules" "$(printf '%.2f' "${OUT#* }")" "s"
row "RSS after that reload" "$(( $(rss_kb "$SPID") / 1024 ))" "MiB"
stop

echo "bench/footprint.sh, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB memory"
echo "java: $(java -version 2>&1 | head -1)"
echo "sluice: $(git rev-parse --short HEAD)"
echo "settings: counters $COUNTERS (heap $FOOTPRINT_HEAP, Serial GC), rule counts $RULE_COUNTS, jmh ${JMH_WARMUP}x${JMH_TIME} warmup ${JMH_ITER}x${JMH_TIME} measured, startup rules $STARTUP_RULES, JAVA_OPTS '${JAVA_OPTS}'"
echo "load before: $LOAD_BEFORE"
printf '%-52s %14s  %s\n' what value unit
printf '%s\n' "${ROWS[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
