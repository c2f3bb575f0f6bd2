#!/usr/bin/env bash
# Is this machine fit to benchmark? About 45 s; run it before and after bench/compare.sh.
# Prints, pinned as compare.sh pins: the do-nothing gRPC server's closed-loop rate and the load
# generator's CPU per request (round 7 on a fresh machine: ~95k req/s, ~10 us; the same machine
# an hour later: 1-6k req/s, 150-330 us, with nothing else running), twice: after a 3 s warm-up
# of each JVM and after 25 s. Round 8 found most of the "slow machine" in the gap: its JIT took
# 20 s and more to settle (a C2 thread still at 40 % of the generator's core 9 s in), so a short
# warm-up measured compilation (12-20k req/s) where a long one measured 76-78k; when the two
# differ, raise compare.sh's WARMUP and SERVER_WARMUP to the long one. Also the memory latency and a
# compute loop from bench/chase.c, and how much freed memory the guest has handed back to the
# host (virtio-balloon free page reporting; see BENCHMARKS.md, round 7). Needs gcc, taskset and
# target/sluice.jar (mvn -B -q -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."
jar=target/sluice.jar
[[ -f $jar ]] || { echo "health: build $jar first (mvn -B -q -DskipTests package)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sluice-health.XXXXXX")
server=""
trap '[[ -n $server ]] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
gcc -O2 -o "$work/chase" bench/chase.c
read -r -a cpus <<<"$(taskset -pc $$ | sed 's/.*: //' | tr ',' ' ' | sed 's/-/ /')"
gen_cpu=${cpus[0]} srv_cpu=${cpus[1]:-${cpus[0]}}
port=$((20000 + RANDOM % 20000))
taskset -c "$srv_cpu" java -XX:+UseG1GC -jar "$jar" bench-server --port "$port" >"$work/server.log" 2>&1 &
server=$!
sleep 3
do_nothing() { # WARMUP_S: one closed-loop run of a fresh load generator against the server
  taskset -c "$gen_cpu" java -XX:+UseSerialGC -Xms1g -Xmx1g -jar "$jar" bench --target "127.0.0.1:$port" \
    --duration 5s --warmup "$1s" --domain bench --descriptor fw= --keys random 2>/dev/null |
    awk -v warm="$1" '/^decisions\/s/{rate=$2} /^process CPU/{for (i = 1; i < NF; i++) if ($(i + 1) == "us") cpu = $i} END{printf "do-nothing gRPC (tuned), closed loop after a %s s warm-up: %s req/s, load generator %s us CPU per request\n", warm, rate, cpu}'
}
do_nothing 3
do_nothing 25
echo "memory: $(taskset -c "$gen_cpu" "$work/chase" 4 | sed 's/; compute.*//') / $(taskset -c "$gen_cpu" "$work/chase" 64)"
reporting=/sys/module/page_reporting/parameters
if [[ -r $reporting/page_reporting_order ]]; then
  extra=""
  [[ -r $reporting/reported_kib ]] && extra=$(awk '{printf ", %.1f GiB reported since boot", $1 / 1048576}' "$reporting/reported_kib")
  echo "free page reporting: order $(cat "$reporting/page_reporting_order")$extra"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
