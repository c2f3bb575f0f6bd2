#!/usr/bin/env bash
# One comparison run on this machine, printed as ONE table:
#   (1) redis-benchmark running Sluice's token_bucket.lua via EVALSHA, unpipelined and -P 16: the
#       physical limit of one Redis;
#   (2) Bucket4j's Redis bucket (Jedis, CAS) in-process, random keys and one hot key;
#   (3) the do-nothing RLS server driven by `sluice bench`: the gRPC ceiling, with grpc-java's
#       default transport and with one tuned like Sluice's (`bench-server --transport`);
#   (4) Sluice end to end over gRPC, memory and Redis stores, a fixed-window and a token-bucket
#       rule, 1 and 4 descriptors per request, hot and random keys; a sliding window and a
#       two-limit `rate_limits` descriptor;
#   (5) open loop (`bench --rate`) at LOADS percent (25 50 75) of each pinned row's closed-loop
#       maximum: p50/p99/p999 from each request's DUE time, so a stall is charged to every
#       request it delayed (no coordinated omission);
#   (6) per collector in GCS, a fresh Sluice (memory, then Redis) token bucket: its closed-loop
#       maximum and open loop at 50 % of it.
# Pinned (PIN=1, the default, on >= 2 CPUs): every load generator (sluice bench, redis-benchmark,
# the Bucket4j peer) runs on CPU 0, every server (Sluice, bench-server, redis-server, cluster
# nodes, sentinels) on CPU 1, so the generator no longer takes its CPU from the server.
# Per row also the error count (must be 0), Redis commands and reads (~round trips) per decision
# and per request from INFO stats deltas, CPU per decision of Redis (per node on a cluster) and of
# the server JVM from /proc/PID/stat deltas, of the load generator as it reports itself (its
# JSON's cpu_s), and the server JVM's GC pauses (its own -Xlog:gc log: count, total, longest).
# All cover exactly the measured window: the deltas are taken when the load generator prints
# "bench: measuring" / "window closed", and GC pauses are those logged between the two.
#
# Usage: bench/compare.sh            (from anywhere; builds the jars when sources are newer)
#        QUICK=1 bench/compare.sh    (about 2 minutes: a smoke that every kind of row still works)
# Env:   DURATION=8s  WARMUP=2s (each load generator)  SERVER_WARMUP=8s (each server, once)
#        CONCURRENCY=64  CHANNELS=2  LOADS="25 50 75" (open-loop rows, percent of the maximum)
#        GEN_JAVA_OPTS: the `sluice bench` load generator's JVM options, default "-XX:+UseSerialGC
#        -Xms3g -Xmx3g -Xmn2g -XX:+AlwaysPreTouch -XX:+UseTransparentHugePages" (why: at
#        DEFAULT_GEN_JAVA_OPTS); "" for the JVM's defaults. Its GC pauses in the window: "cli gc".
#        GEN_JIT_NICE=19: nice of the generator's JIT threads during its window ("": unchanged).
#        AWAKE=0 (1: keep each CPU busy with a SCHED_IDLE spinner, `chrt -i 0`, so the VM does not
#        halt an idle vCPU: measured here, a thread sleeping to 250 us deadlines wakes up to
#        1.4 ms late at p99 on an idle vCPU and 0.1 ms on one kept busy; SCHED_IDLE yields to any
#        other thread, so it takes no CPU from the measured processes; see BENCHMARKS.md)
#        PAGE_REPORTING=keep (hold: as root, stop the guest kernel's free page reporting for the run,
#        restored at exit; see BENCHMARKS.md round 7: each row's fresh JVMs free gigabytes that the
#        guest hands back to the host, and this VM ran JVMs 3-4x slower after ~40 GiB of that)
#        PIN=1 (0: no taskset)  GCS="g1tuned zgc parallel" (collector rows; "" for none; names:
#        g1, g1tuned (G1 with MaxGCPauseMillis=$G1_PAUSE_MS, default 5), zgc, parallel, serial)
#        SERVER_JAVA_OPTS: the server JVMs' options; default the image's (deploy/image/jvm.options), so the
#        figures are the shipped image's. GC=NAME replaces its collector for the main rows.
#        REDIS_CONNECTIONS, REDIS_TIMEOUT: unset = Sluice's defaults (every figure uses them;
#        set one only to explore, and say so next to the figures).
#        SKIP_BUILD=1 to use the jars as they are. ONLY="redis-benchmark bucket4j nothing memory
#        redis gc h2load" (the default: all; h2load = bench/h2load.sh's pinned rows with an
#        independent C generator, after the table) runs only the parts named, e.g. ONLY="redis gc" to redo those.
#        TOPOLOGIES="standalone cluster sentinel" adds Sluice rows on a 3-master Redis Cluster
#        (redis-cluster://, no replicas: 3 redis-servers) and through sentinels (1 master,
#        1 replica, 3 sentinels); default "standalone". On a cluster the Redis columns are summed
#        over the masters, so cmd/dec, rt/dec and redisus compare directly with the single node:
#        equal figures mean the per-node cost of a decision did not grow; "redisus/node" splits
#        it per master (CPU over the decisions that master served, by its share of commands).
# QUICK=1 defaults to DURATION=3s WARMUP=1s SERVER_WARMUP=2s LOADS=50 GCS="", one descriptor
# per request, random keys and one Bucket4j row; any knob set explicitly still wins.
# A "decision" is one counted descriptor: a request with 4 descriptors is 4 decisions, one
# EVALSHA is 1. req/s counts ShouldRateLimit calls. The private redis-server runs on a free port;
# Redis on 6379 is never touched. Every process started here is stopped on exit.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)

seconds() { # "10s" or "10" -> 10
  local value=${1%s}
  [[ $value =~ ^[0-9]+$ ]] || { echo "compare: not a whole number of seconds: $1" >&2; exit 2; }
  echo "$value"
}
QUICK=${QUICK:-0}
if [[ $QUICK == 1 ]]; then
  DURATION_S=$(seconds "${DURATION:-3s}")
  WARMUP_S=$(seconds "${WARMUP:-1s}")
  SERVER_WARMUP_S=$(seconds "${SERVER_WARMUP:-2s}")
  LOADS=${LOADS-50}
  GCS=${GCS-}
  SHAPES_M="1" SHAPES_KEYS="random" PEER_KEYS="random"
else
  DURATION_S=$(seconds "${DURATION:-8s}")
  WARMUP_S=$(seconds "${WARMUP:-2s}")
  SERVER_WARMUP_S=$(seconds "${SERVER_WARMUP:-8s}")
  LOADS=${LOADS-25 50 75}
  GCS=${GCS-g1tuned zgc parallel}
  SHAPES_M="1 4" SHAPES_KEYS="random hot" PEER_KEYS="random hot"
fi
CONCURRENCY=${CONCURRENCY:-64}
# The load generator's JVM: Serial, because pinned to one CPU every collector's GC threads share the
# generator's core anyway and Serial has no concurrent work to take it between pauses; a 2 GiB young
# generation, so that a young collection (a few ms with the generator's near-empty live set) comes
# every few seconds at the closed loop's rate and seldom in an open-loop window; the heap touched
# and zeroed at start-up (huge pages where the kernel allows them), so first-touch page faults are
# not in the window. The JVM's own default on one CPU was Serial with a ~100 MB young generation:
# a pause every fraction of a second, each one charged to the requests due during it.
# GEN_JIT_NICE: the nice value the generator's JIT compiler threads get once its window opens
# ("" leaves them alone). They share the generator's one core with its event loops, and a
# compilation still running after the warmup runs for milliseconds at a time: a pacer or an
# answer waking behind it waits for the scheduler (a C probe sleeping 250 us on this VM woke
# p99 54 us late as SCHED_FIFO, 6-9 ms late behind other runnable threads). At nice 19 the
# compilers run in the core's idle time instead.
GEN_JIT_NICE=${GEN_JIT_NICE-19}
DEFAULT_GEN_JAVA_OPTS="-XX:+UseSerialGC -Xms3g -Xmx3g -Xmn2g -XX:+AlwaysPreTouch -XX:+UseTransparentHugePages"
read -r -a GEN_JAVA_OPTS <<<"${GEN_JAVA_OPTS-$DEFAULT_GEN_JAVA_OPTS}"
CHANNELS=${CHANNELS:-2}
PIN=${PIN:-1}
G1_PAUSE_MS=${G1_PAUSE_MS:-5}
TOPOLOGIES=${TOPOLOGIES:-standalone}
ONLY=${ONLY:-redis-benchmark bucket4j nothing memory redis gc h2load}
for part in $ONLY; do
  [[ " redis-benchmark bucket4j nothing memory redis gc " == *" $part "* ]] ||
    { echo "compare: ONLY holds redis-benchmark bucket4j nothing memory redis gc, not '$part'" >&2; exit 2; }
done
(( DURATION_S >= 3 )) || { echo "compare: DURATION must be at least 3s" >&2; exit 2; }
for pct in $LOADS; do
  [[ $pct =~ ^[0-9]+$ ]] && ((pct > 0 && pct <= 100)) ||
    { echo "compare: LOADS holds percentages 1..100, not '$pct'" >&2; exit 2; }
done

# The rules Sluice serves; the peers get the same numbers.
LIMIT_PER_SECOND=100000 # high enough that a hot key is counted, not refused
BURST=100000

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sluice-compare.XXXXXX")
GEN_GC_LOG=$WORK/gc-generator.log # one `sluice bench` at a time; each JVM truncates it
PIDS=()
RESULTS=$WORK/results.tsv
RUN_NO=0
: >"$RESULTS"
CLK_TCK=$(getconf CLK_TCK)

log() { printf '[compare %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

alive() { # running, not a zombie waiting to be reaped
  [[ -r /proc/$1/stat ]] && [[ $(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1) != Z ]]
}

stop_pid() { # TERM, up to 10 s to finish, then KILL; reaps it (every PID here is our child)
  local pid=$1
  if alive "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      alive "$pid" || break
      sleep 0.2
    done
    alive "$pid" && kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local status=$?
  restore_page_reporting
  for pid in "${PIDS[@]}"; do
    stop_pid "$pid"
  done
  wait 2>/dev/null || true
  if ((status != 0)); then
    rm -f "$WORK"/*.jar
    log "failed; logs kept in $WORK"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for tool in java mvn redis-server redis-cli redis-benchmark curl awk; do
  command -v "$tool" >/dev/null || die "$tool is not on PATH"
done

# free_port, wait_for, forget_pid, start_bg
# shellcheck source=bench/lib/common.sh
source bench/lib/common.sh

build_if_needed() {
  if [[ ${SKIP_BUILD:-0} == 1 ]]; then
    return
  fi
  local stale=0
  for jar in target/sluice.jar target/benchmarks.jar; do
    if [[ ! -f $jar ]] || [[ -n $(find src pom.xml -newer "$jar" -print -quit) ]]; then
      stale=1
    fi
  done
  if ((stale)); then
    log "building target/sluice.jar and target/benchmarks.jar"
    mvn -B -q -DskipTests package >"$WORK/build.log" 2>&1 || die "build failed: $WORK/build.log"
    mvn -B -q -P bench -DskipTests package >>"$WORK/build.log" 2>&1 ||
      die "bench build failed: $WORK/build.log"
  fi
}

# ---- measurements ----------------------------------------------------------------------------

cpu_ticks() { # utime+stime of a process, in clock ticks; 0 when it is gone
  local pid=$1
  if [[ -z $pid || ! -r /proc/$pid/stat ]]; then
    echo 0
    return
  fi
  # Fields after "(comm) ": state is 1st, utime 12th, stime 13th. It may end between the test
  # and the read: then 0 as well.
  { sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null || true; } | awk '{t = $12 + $13} END {print t + 0}'
}

# redis_snapshot -> "commands reads ticks N commands_1 ticks_1 ... commands_N ticks_N": totals over
# the data nodes in STAT_PORTS/STAT_PIDS, then each node's own.
redis_snapshot() {
  local i cmds reads ticks total_c=0 total_r=0 total_t=0 nodes=""
  for i in "${!STAT_PORTS[@]}"; do
    read -r cmds reads < <(redis-cli -p "${STAT_PORTS[$i]}" info stats | awk -F: '
      /^total_commands_processed:/{gsub(/\r/,"",$2); c=$2}
      /^total_reads_processed:/{gsub(/\r/,"",$2); r=$2} END{print c+0, r+0}')
    ticks=$(cpu_ticks "${STAT_PIDS[$i]}")
    total_c=$((total_c + cmds))
    total_r=$((total_r + reads))
    total_t=$((total_t + ticks))
    nodes+=" $cmds $ticks"
  done
  echo "$total_c $total_r $total_t ${#STAT_PORTS[@]}$nodes"
}

flush_data() {
  local port
  for port in "${STAT_PORTS[@]}"; do
    redis-cli -p "$port" flushall >/dev/null
  done
}

# snapshot SERVER_PID CLIENT_PID -> "nanos server_ticks client_ticks <redis_snapshot>"
snapshot() {
  echo "$(date +%s%N) $(cpu_ticks "$1") $(cpu_ticks "$2") $(redis_snapshot)"
}

json_field() { # json_field NAME JSON_LINE
  sed -E "s/.*\"$1\":\"?([^,\"}]*)\"?.*/\1/" <<<"$2"
}

# record LABEL GROUP M KEYS REQ_S P50_MS P99_MS P999_MS ERRORS CMDS READS RT_REQ REDIS_US
#        SERVER_US CLIENT_US GC_N GC_MS GC_MAX_MS REDIS_US_PER_NODE [CLIENT_GC "n/ms"]
record() {
  local IFS=$'\t'
  echo "$*" >>"$RESULTS"
}

# per_decision BEFORE AFTER DECISIONS M USES_REDIS SERVER CLIENT -> "cmds reads rt_req redis_us
#   server_us client_us per_node" between the two snapshots: per decision, but rt_req per request;
#   per_node is each data node's CPU over the decisions it served (its share of the commands),
#   "a/b/c", or "-" on a single node.
per_decision() {
  awk -v a="$1" -v b="$2" -v decisions="$3" -v m="$4" -v redis="$5" -v server="$6" \
    -v client="$7" -v tck="$CLK_TCK" 'BEGIN {
      split(a, x, " "); split(b, y, " ");
      if (decisions <= 0) { print "- - - - - - -"; exit }
      us = 1e6 / tck;
      scpu = server ? sprintf("%.1f", (y[2] - x[2]) * us / decisions) : "-";
      ccpu = client ? sprintf("%.1f", (y[3] - x[3]) * us / decisions) : "-";
      cmds = reads = rtreq = rcpu = nodes = "-";
      if (redis) {
        dc = y[4] - x[4];
        cmds = sprintf("%.2f", dc / decisions);
        reads = sprintf("%.2f", (y[5] - x[5]) / decisions);
        rtreq = sprintf("%.2f", (y[5] - x[5]) * m / decisions);
        rcpu = sprintf("%.1f", (y[6] - x[6]) * us / decisions);
        if (y[7] > 1) {
          nodes = "";
          for (k = 1; k <= y[7]; k++) {
            share = dc > 0 ? (y[6 + 2 * k] - x[6 + 2 * k]) / dc : 0;
            v = share > 0 ? sprintf("%.1f", (y[7 + 2 * k] - x[7 + 2 * k]) * us / (decisions * share)) : "-";
            nodes = nodes (k > 1 ? "/" : "") v;
          }
        }
      }
      print cmds, reads, rtreq, rcpu, scpu, ccpu, nodes }'
}

# gc_pauses LOG FROM_NANOS TO_NANOS -> "count total_ms max_ms" of the stop-the-world pauses a JVM
# logged (-Xlog:gc,gc+phases with the tm decoration: G1/Parallel/Serial "Pause Young ... 3.4ms",
# ZGC "Pause Mark Start 0.01ms") between the two wall-clock times; "- - -" without a log.
gc_pauses() {
  local log=$1
  if [[ -z $log || ! -f $log ]]; then
    echo "- - -"
    return
  fi
  awk -v from="$(($2 / 1000000))" -v to="$(($3 / 1000000))" '
    / Pause / && $NF ~ /^[0-9.]+ms$/ {
      t = $1; gsub(/[^0-9]/, "", t)
      if (t + 0 >= from && t + 0 <= to) {
        v = $NF; sub(/ms$/, "", v); n++; total += v; if (v + 0 > max) max = v + 0
      }
    }
    END { printf "%d %.1f %.1f\n", n, total, max }' "$log"
}

# wait_line FILE TEXT SECONDS PID: until FILE holds TEXT; fails when PID ends first.
wait_line() {
  local deadline=$((SECONDS + $3))
  until grep -qF "$2" "$1" 2>/dev/null; do
    alive "$4" || die "the process ended before printing '$2': $(tail -5 "$1")"
    ((SECONDS < deadline)) || die "no '$2' after $3 s: $(tail -5 "$1")"
    sleep 0.05
  done
}

renice_jit() { # renice_jit PID: the JVM's C1/C2 compiler threads to GEN_JIT_NICE
  [[ -n $GEN_JIT_NICE ]] || return 0
  local task name
  for task in /proc/"$1"/task/*; do
    read -r name 2>/dev/null <"$task/comm" || continue
    if [[ $name == C[12]\ CompilerThre* ]]; then
      renice -n "$GEN_JIT_NICE" -p "${task##*/}" >/dev/null 2>&1 || true
    fi
  done
}

millis() { awk -v u="$1" 'BEGIN{printf "%.3f", u/1000}'; } # microseconds -> milliseconds

# measure_jvm LABEL GROUP M USES_REDIS SERVER_PID SELF -- COMMAND...
#   Runs a load generator that prints "bench: measuring" and "bench: window closed" on stderr
#   and one BenchResult JSON line on stdout; the snapshots are taken at those two lines, so the
#   counters cover the measured window (warmup, JVM start-up and the drain are left out).
#   SELF: the load generator is the system under test (Bucket4j): its CPU goes in the server column.
#   GC pauses come from SERVER_GC_LOG (the running server's), none for SELF.
#   Sets LAST_REQ_S.
measure_jvm() {
  local label=$1 group=$2 m=$3 redis=$4 server=$5 self=$6
  shift 7
  [[ $redis == 1 ]] && flush_data
  log "measuring: $label (M=$m)"
  # Fresh files per run, made before the launch: the child truncates its own output only once
  # it runs, so reusing one file could show the previous run's lines to wait_line.
  RUN_NO=$((RUN_NO + 1))
  local out="$WORK/run-$RUN_NO.json" err="$WORK/run-$RUN_NO.err"
  : >"$out"
  : >"$err"
  "$@" >"$out" 2>"$err" &
  local client=$!
  PIDS+=("$client")
  local server_pid=$server gc_log=${SERVER_GC_LOG:-}
  if [[ $self == self ]]; then
    server_pid=""
    gc_log=""
  fi
  local before after
  wait_line "$err" "bench: measuring" $((WARMUP_S + 120)) "$client"
  before=$(snapshot "$server_pid" "")
  [[ $self == self ]] || renice_jit "$client"
  wait_line "$err" "bench: window closed" $((DURATION_S + 60)) "$client"
  after=$(snapshot "$server_pid" "")
  wait "$client" || die "$label failed: $(tail -5 "$err")"
  forget_pid "$client"
  local json
  json=$(tail -1 "$out")
  [[ $json == \{* ]] || die "$label printed no JSON: $(tail -5 "$err")"
  local errors
  errors=$(json_field errors "$json")
  if ((errors != 0)); then
    log "warning: $label had $errors errors: $(grep -m1 '^first' "$err")"
    ERROR_ROWS+=("$label (M=$m $group): $errors, $(grep -m1 '^first' "$err")")
  fi
  local sent
  sent=$(json_field sent "$json")
  if ((sent < 100)); then
    NOTES+=("$label (M=$m $group): only $sent requests sent in the window; its chains were stuck behind answers slower than the warmup: not a figure")
  fi
  local decisions
  decisions=$(awk -v ok="$(json_field ok "$json")" -v over="$(json_field over_limit "$json")" \
    -v m="$m" 'BEGIN{print (ok + over) * m}')
  local cmds reads rtreq rcpu scpu ccpu nodes
  read -r cmds reads rtreq rcpu scpu ccpu nodes < <(per_decision "$before" "$after" "$decisions" \
    "$m" "$([[ $redis == 1 ]] && echo 1 || echo 0)" "$([[ -n $server_pid ]] && echo 1 || echo 0)" 0)
  # The load generator may exit right after the window, before /proc could be read: it reports
  # its own CPU over the window (cpu_s) instead.
  local own_cpu
  own_cpu=$(awk -v s="$(json_field cpu_s "$json")" -v d="$decisions" \
    'BEGIN{print (s < 0 || d <= 0) ? "-" : sprintf("%.1f", s * 1e6 / d)}')
  if [[ $self == self ]]; then
    scpu=$own_cpu
  else
    ccpu=$own_cpu
  fi
  local gc_n gc_ms gc_max gen_gc=-
  read -r gc_n gc_ms gc_max < <(gc_pauses "$gc_log" "${before%% *}" "${after%% *}")
  if [[ " $* " == *"$GEN_GC_LOG"* ]]; then # a `sluice bench` generator that logged its GC
    gen_gc=$(gc_pauses "$GEN_GC_LOG" "${before%% *}" "${after%% *}" | awk '{print $1 "/" $2}')
  fi
  LAST_REQ_S=$(json_field decisions_per_s "$json")
  record "$label" "$group" "$m" "$(json_field keys "$json")" "$LAST_REQ_S" \
    "$(millis "$(json_field p50_us "$json")")" "$(millis "$(json_field p99_us "$json")")" \
    "$(millis "$(json_field p999_us "$json")")" "$errors" \
    "$cmds" "$reads" "$rtreq" "$rcpu" "$scpu" "$ccpu" "$gc_n" "$gc_ms" "$gc_max" "$nodes" "$gen_gc"
}

# bench_cmd PORT KEY_ENTRY M KEYS [extra flags...]: sets CMD to a `sluice bench` command line on
# the load generator's CPU (an array, not a function, so that $! of the background job is the
# JVM's own PID: taskset execs its command).
bench_cmd() {
  local port=$1 entry=$2 m=$3 keys=$4
  shift 4
  CMD=("${GEN_PIN[@]}" java "${GEN_JAVA_OPTS[@]}" "-Xlog:gc:file=$GEN_GC_LOG:tm"
    -jar "$SLUICE_JAR" bench --target "127.0.0.1:$port"
    --concurrency "$CONCURRENCY" --channels "$CHANNELS"
    --duration "${DURATION_S}s" --warmup "${WARMUP_S}s" --domain bench
    --descriptor "$entry=" --descriptors-per-request "$m" --keys "$keys" --json "$@")
}

# open_rows PORT ENTRY LABEL GROUP USES_REDIS SERVER_PID MAX_REQ_S [PERCENT...]: open loop at each
# percentage (default LOADS) of MAX_REQ_S, one descriptor, random keys.
open_rows() {
  local port=$1 entry=$2 label=$3 group=$4 redis=$5 pid=$6 max=$7 pct rate
  shift 7
  local loads=("$@")
  ((${#loads[@]})) || read -r -a loads <<<"$LOADS"
  for pct in "${loads[@]}"; do
    rate=$(awk -v r="$max" -v p="$pct" 'BEGIN{printf "%.0f", r * p / 100}')
    if ((rate < 1)); then
      log "skipping $label @$pct%: the closed-loop maximum was $max req/s"
      continue
    fi
    bench_cmd "$port" "$entry" 1 random --rate "$rate"
    measure_jvm "$label @$pct%" "$group" 1 "$redis" "$pid" - -- "${CMD[@]}"
  done
}

# redis-benchmark's percentile table: the first row at or above PCT, in ms.
rb_percentile() {
  awk -v p="$2" '/Latency by percentile distribution/{on=1; next}
    on && /^ *[0-9.]+% <=/ { v=$1; sub(/%/,"",v); if (v+0 >= p) { print $3; exit } }' "$1"
}

measure_redis_benchmark() { # LABEL PIPELINE
  local label=$1 pipeline=$2
  local args=(-h 127.0.0.1 -p "$REDIS_PORT" -c "$CONCURRENCY" -P "$pipeline" -r 100000000
    evalsha "$TOKEN_BUCKET_SHA" 1 "sluice-tb:__rand_int__" "$BURST" "$LIMIT_PER_SECOND" 1 1)
  log "measuring: $label (calibrating)"
  local quick rps n
  quick=$("${GEN_PIN[@]}" redis-benchmark -n $((CONCURRENCY * 300)) -q "${args[@]}" 2>/dev/null |
    tr '\r' '\n' | grep 'requests per second' | tail -1)
  rps=$(sed -E 's/.*: ([0-9.]+) requests per second.*/\1/' <<<"$quick")
  n=$(awk -v r="$rps" -v d="$DURATION_S" 'BEGIN{n=int(r*d); print (n < 10000 ? 10000 : n)}')
  redis-cli -p "$REDIS_PORT" flushall >/dev/null
  log "measuring: $label ($n requests)"
  local before after
  before=$(snapshot "" "")
  "${GEN_PIN[@]}" redis-benchmark -n "$n" "${args[@]}" 2>&1 | tr '\r' '\n' >"$WORK/rb.out"
  after=$(snapshot "" "")
  local req_s errors
  req_s=$(awk '/throughput summary/{print $3}' "$WORK/rb.out")
  # redis-benchmark counts no errors; a failing script prints them, so count what it printed.
  errors=$(grep -c -E '^(\(error\)|Error|ERR)' "$WORK/rb.out" || true)
  ((errors == 0)) || ERROR_ROWS+=("$label: $errors error lines, $(grep -m1 -E 'rror|ERR' "$WORK/rb.out")")
  local cmds reads rtreq rcpu
  read -r cmds reads rtreq rcpu _ _ _ < <(per_decision "$before" "$after" "$n" 1 1 0 0)
  record "$label" redis 1 random "$req_s" "$(rb_percentile "$WORK/rb.out" 50)" \
    "$(rb_percentile "$WORK/rb.out" 99)" "$(rb_percentile "$WORK/rb.out" 99.9)" "$errors" \
    "$cmds" "$reads" "$rtreq" "$rcpu" "-" "-" "-" "-" "-" "-"
}

# The single redis-server of start_redis, for the standalone rows (after other topologies ran).
start_redis_urls_standalone() {
  STAT_PORTS=("$REDIS_PORT")
  STAT_PIDS=("$REDIS_PID")
  SLUICE_REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
}

start_redis() {
  REDIS_PORT=$(free_port)
  start_bg redis "${SRV_PIN[@]}" redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' \
    --appendonly no --dir "$WORK" --protected-mode yes
  REDIS_PID=$BG_PID
  STAT_PORTS=("$REDIS_PORT")
  STAT_PIDS=("$REDIS_PID")
  SLUICE_REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
  wait_for "redis-server on $REDIS_PORT" 20 redis-cli -p "$REDIS_PORT" ping
  TOKEN_BUCKET_SHA=$(redis-cli -p "$REDIS_PORT" script load \
    "$(cat src/main/resources/lua/token_bucket.lua)")
}

# start_cluster: 3 masters, no replicas (on 2 cores replicas would only steal CPU), joined with
# redis-cli --cluster create; the rows then use redis-cluster:// with every master as a seed.
start_cluster() {
  local i port ports=() pids=() seeds=()
  for i in 1 2 3; do
    port=$(free_port)
    mkdir -p "$WORK/cluster-$port"
    start_bg "cluster-$port" "${SRV_PIN[@]}" redis-server --bind 127.0.0.1 --port "$port" --save '' \
      --appendonly no --cluster-enabled yes --dir "$WORK/cluster-$port" \
      --cluster-config-file nodes.conf
    pids+=("$BG_PID")
    ports+=("$port")
    seeds+=("127.0.0.1:$port")
    wait_for "cluster node on $port" 20 redis-cli -p "$port" ping
  done
  redis-cli --cluster create "${seeds[@]}" --cluster-yes >"$WORK/cluster-create.log" 2>&1 ||
    die "redis-cli --cluster create failed: $(tail -5 "$WORK/cluster-create.log")"
  cluster_ok() { redis-cli -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok'; }
  wait_for "cluster_state:ok" 30 cluster_ok
  STAT_PORTS=("${ports[@]}")
  STAT_PIDS=("${pids[@]}")
  SLUICE_REDIS_URL="redis-cluster://$(IFS=,; echo "${seeds[*]}")"
}

# start_sentinel: a master, its replica and 3 sentinels; the rows then use redis-sentinel://.
# Only the master counts (the replica applies the same writes: its CPU is left out).
start_sentinel() {
  local master replica i port seeds=()
  master=$(free_port)
  mkdir -p "$WORK/master" "$WORK/replica"
  # Their own directories: a full sync writes an RDB file on the replica's side, --save '' or not.
  start_bg "sentinel-master" "${SRV_PIN[@]}" redis-server --bind 127.0.0.1 --port "$master" \
    --save '' --appendonly no --dir "$WORK/master"
  local master_pid=$BG_PID
  wait_for "sentinel master on $master" 20 redis-cli -p "$master" ping
  replica=$(free_port)
  start_bg "sentinel-replica" "${SRV_PIN[@]}" redis-server --bind 127.0.0.1 --port "$replica" --save '' \
    --appendonly no --dir "$WORK/replica" --replicaof 127.0.0.1 "$master"
  wait_for "replica on $replica" 20 redis-cli -p "$replica" ping
  for i in 1 2 3; do
    port=$(free_port)
    printf 'sentinel monitor bench 127.0.0.1 %s 2\nsentinel down-after-milliseconds bench 2000\n' \
      "$master" >"$WORK/sentinel-$port.conf"
    start_bg "sentinel-$port" "${SRV_PIN[@]}" redis-server "$WORK/sentinel-$port.conf" --sentinel \
      --bind 127.0.0.1 --port "$port"
    wait_for "sentinel on $port" 20 redis-cli -p "$port" ping
    seeds+=("127.0.0.1:$port")
  done
  STAT_PORTS=("$master")
  STAT_PIDS=("$master_pid")
  SLUICE_REDIS_URL="redis-sentinel://$(IFS=,; echo "${seeds[*]}")/bench"
}

write_rules() {
  mkdir -p "$WORK/rules"
  cat >"$WORK/rules/bench.yaml" <<EOF
domain: bench
descriptors:
  - key: fw
    rate_limit: {name: fixed-window, unit: second, requests_per_unit: $LIMIT_PER_SECOND}
  - key: tb
    rate_limit:
      name: token-bucket
      unit: second
      requests_per_unit: $LIMIT_PER_SECOND
      algorithm: token_bucket
      burst: $BURST
  - key: sw
    rate_limit:
      name: sliding-window
      unit: second
      requests_per_unit: $LIMIT_PER_SECOND
      algorithm: sliding_window
  - key: ml
    rate_limits:
      - {name: per-second, unit: second, requests_per_unit: $LIMIT_PER_SECOND}
      - {name: per-hour, unit: hour, requests_per_unit: 4000000000}
EOF
}

healthy() { curl -sf "http://127.0.0.1:$1/healthcheck"; }

# warm_server PORT ENTRY...: one unmeasured client per ENTRY, in parallel, for SERVER_WARMUP, so
# the first measured row does not pay for the server JVM's JIT compilation.
warm_server() {
  local port=$1 entry pid pids=() n=0
  shift
  log "warming the server on port $port for ${SERVER_WARMUP_S}s"
  for entry in "$@"; do
    "${GEN_PIN[@]}" java -jar "$SLUICE_JAR" bench --target "127.0.0.1:$port" \
      --concurrency "$CONCURRENCY" --channels "$CHANNELS" --duration "${SERVER_WARMUP_S}s" \
      --warmup 0s --domain bench --descriptor "$entry=" --descriptors-per-request 4 --keys random \
      >"$WORK/warm-$port-$((++n)).log" 2>&1 &
    pids+=($!)
    PIDS+=("$!")
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || die "warming failed: $(tail -3 "$WORK"/warm-*.log)"
    forget_pid "$pid"
  done
}

# ---- server JVMs: options, collectors, pinning -------------------------------------------------

# The -X options of the image's JVM settings (the argument file its ENTRYPOINT and /bin/ratelimit
# read): what the shipped image runs Sluice with.
dockerfile_java_opts() {
  grep -E '^-X' deploy/image/jvm.options | tr '\n' ' '
}

collector_opts() { # NAME -> the JVM flags selecting that collector
  case $1 in
    g1) echo "-XX:+UseG1GC" ;;
    g1tuned) echo "-XX:+UseG1GC -XX:MaxGCPauseMillis=$G1_PAUSE_MS" ;;
    zgc) echo "-XX:+UseZGC" ;;
    parallel) echo "-XX:+UseParallelGC" ;;
    serial) echo "-XX:+UseSerialGC" ;;
    *) die "unknown collector '$1' (g1, g1tuned, zgc, parallel, serial)" ;;
  esac
}

# jvm_opts NAME LOG_NAME: sets JOPTS to the server JVM options (SERVER_JAVA_OPTS, whose collector
# flags NAME replaces when given) plus a GC log in $WORK/gc-LOG_NAME.log (SERVER_GC_LOG).
jvm_opts() {
  local gc=$1 opt collector='^-XX:[+-]Use[A-Za-z0-9]*GC$|^-XX:MaxGCPauseMillis='
  JOPTS=()
  for opt in "${BASE_JAVA_OPTS[@]}"; do
    if [[ -n $gc && $opt =~ $collector ]]; then
      continue
    fi
    JOPTS+=("$opt")
  done
  if [[ -n $gc ]]; then
    read -r -a opt <<<"$(collector_opts "$gc")"
    JOPTS+=("${opt[@]}")
  fi
  SERVER_GC_LOG=$WORK/gc-$2.log
  JOPTS+=("-Xlog:gc,gc+phases:file=$SERVER_GC_LOG:tm")
}

# The collector a server JVM with these options really gets on its CPU: on one CPU the JVM is
# not "server class" and picks Serial unless a collector is named.
collector_in_use() {
  "${SRV_PIN[@]}" java "$@" -XX:+PrintFlagsFinal -version 2>/dev/null |
    awk '$2 ~ /^Use(Serial|Parallel|G1|Z|Shenandoah)GC$/ && $4 == "true" {print $2}' | head -1
}

# setup_pinning: GEN_PIN / SRV_PIN are `taskset -c CPU` prefixes, empty when not pinning.
setup_pinning() {
  GEN_PIN=()
  SRV_PIN=()
  if [[ $PIN != 1 ]]; then
    PIN_NOTE="not pinned (PIN=$PIN)"
    return
  fi
  if ! command -v taskset >/dev/null; then
    log "warning: no taskset on PATH: nothing is pinned"
    PIN_NOTE="not pinned (no taskset)"
    return
  fi
  # The CPUs this script may use (it may itself be pinned), expanded from "0,2-3".
  local cpus
  read -r -a cpus <<<"$(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' |
    awk -F- '{for (c = $1; c <= ($2 == "" ? $1 : $2); c++) printf "%d ", c}')"
  if ((${#cpus[@]} < 2)); then
    log "warning: only ${#cpus[@]} CPU available: nothing is pinned"
    PIN_NOTE="not pinned (1 CPU)"
    return
  fi
  GEN_PIN=(taskset -c "${cpus[0]}")
  SRV_PIN=(taskset -c "${cpus[1]}")
  PIN_NOTE="load generators on CPU ${cpus[0]}, servers and Redis on CPU ${cpus[1]}"
  ((${#cpus[@]} == 2)) || PIN_NOTE+=" (of ${#cpus[@]}; the rest idle)"
  if [[ ${AWAKE:-0} == 1 ]]; then
    start_awake "${cpus[0]}"
    start_awake "${cpus[1]}"
    PIN_NOTE+="; AWAKE=1: a SCHED_IDLE spinner keeps CPUs ${cpus[0]} and ${cpus[1]} from idling"
  fi
}

# start_awake CPU: a busy loop at SCHED_IDLE on CPU, so the hypervisor never halts that vCPU and
# a wake-up there is not delayed by the VM's own wake-up of the vCPU. It runs only when nothing
# else on that CPU is runnable. Stopped with the others on exit.
start_awake() {
  command -v chrt >/dev/null || die "AWAKE=1 needs chrt (util-linux)"
  start_bg "awake-cpu$1" taskset -c "$1" chrt -i 0 sh -c 'while :; do :; done'
}

# start_sluice STORE COLLECTOR -> SLUICE_PID, SLUICE_PORT (Sluice binds free ports and logs them)
start_sluice() {
  local store=$1 gc=$2
  RUN_NO=$((RUN_NO + 1))
  local name=sluice-$store${gc:+-$gc}-$RUN_NO
  jvm_opts "$gc" "$name"
  local args=(serve --config "$WORK/rules" --store "$store" --grpc-port 0 --http-port 0
    --redis-url "$SLUICE_REDIS_URL")
  [[ -n ${REDIS_CONNECTIONS:-} ]] && args+=(--redis-connections "$REDIS_CONNECTIONS")
  [[ -n ${REDIS_TIMEOUT:-} ]] && args+=(--redis-timeout "$REDIS_TIMEOUT")
  start_bg "$name" "${SRV_PIN[@]}" java "${JOPTS[@]}" -jar "$SLUICE_JAR" "${args[@]}"
  SLUICE_PID=$BG_PID
  wait_line "$WORK/$name.log" "Sluice ready" 90 "$SLUICE_PID"
  local ready
  ready=$(grep -m1 "Sluice ready" "$WORK/$name.log")
  SLUICE_PORT=$(sed -E 's/.*grpc port ([0-9]+).*/\1/' <<<"$ready")
  local http
  http=$(sed -E 's/.*http port ([0-9]+).*/\1/' <<<"$ready")
  wait_for "sluice serve --store $store" 30 healthy "$http"
  warm_server "$SLUICE_PORT" fw tb
}

stop_server() {
  stop_pid "$1"
  forget_pid "$1"
  SERVER_GC_LOG=""
}

sluice_rows() { # sluice_rows STORE LABEL
  local store=$1 label=$2 redis=0
  [[ $store == redis ]] && redis=1
  start_sluice "$store" "${GC:-}"
  local rule m keys
  for rule in fw tb; do
    for m in $SHAPES_M; do
      for keys in $SHAPES_KEYS; do
        bench_cmd "$SLUICE_PORT" "$rule" "$m" "$keys"
        measure_jvm "sluice $label $rule" "sluice-$label" "$m" "$redis" "$SLUICE_PID" - -- \
          "${CMD[@]}"
        if [[ $m == 1 && $keys == random ]]; then
          open_rows "$SLUICE_PORT" "$rule" "sluice $label $rule" "sluice-$label" "$redis" \
            "$SLUICE_PID" "$LAST_REQ_S"
        fi
      done
    done
  done
  for rule in sw ml; do
    bench_cmd "$SLUICE_PORT" "$rule" 1 random
    measure_jvm "sluice $label $rule" "sluice-$label" 1 "$redis" "$SLUICE_PID" - -- "${CMD[@]}"
  done
  stop_server "$SLUICE_PID"
}

# gc_rows COLLECTOR: a fresh Sluice per store with that collector; the token bucket's closed-loop
# maximum, then open loop at 50 % of it.
gc_rows() {
  local gc=$1 store redis
  for store in memory redis; do
    redis=$([[ $store == redis ]] && echo 1 || echo 0)
    start_sluice "$store" "$gc"
    bench_cmd "$SLUICE_PORT" tb 1 random
    measure_jvm "sluice $store tb gc=$gc" "gc" 1 "$redis" "$SLUICE_PID" - -- "${CMD[@]}"
    open_rows "$SLUICE_PORT" tb "sluice $store tb gc=$gc" "gc" "$redis" "$SLUICE_PID" \
      "$LAST_REQ_S" 50
    stop_server "$SLUICE_PID"
  done
}

# The do-nothing server with grpc-java's default transport and with one tuned like Sluice's,
# when bench-server has --transport; otherwise the one bench-server as it is.
ceiling_rows() {
  local transports=(-) transport
  if java -jar "$SLUICE_JAR" bench-server --help 2>&1 | grep -q -- '--transport'; then
    transports=(default tuned)
  else
    NOTES+=("do-nothing server: this bench-server has no --transport flag, so the grpc-java-defaults and tuned rows were skipped; 'nothing' is bench-server as it is")
    log "skipping the default/tuned transport ceilings: bench-server has no --transport flag"
  fi
  for transport in "${transports[@]}"; do
    local label=nothing group=ceiling
    [[ $transport == - ]] || label="nothing $transport"
    [[ $transport == default ]] && group=ceiling-default
    local name=bench-server-${transport/-/plain}
    jvm_opts "${GC:-}" "$name"
    local flags=(--port 0)
    [[ $transport == - ]] || flags+=(--transport "$transport")
    start_bg "$name" "${SRV_PIN[@]}" java "${JOPTS[@]}" -jar "$SLUICE_JAR" bench-server "${flags[@]}"
    local pid=$BG_PID port
    wait_line "$WORK/$name.log" "answering OK on gRPC port" 60 "$pid"
    port=$(sed -E 's/.*gRPC port ([0-9]+).*/\1/' <<<"$(grep -m1 "answering OK" "$WORK/$name.log")")
    warm_server "$port" fw fw
    local m
    for m in $SHAPES_M; do
      bench_cmd "$port" fw "$m" random
      measure_jvm "$label" "$group" "$m" 0 "$pid" - -- "${CMD[@]}"
      if [[ $m == 1 ]]; then
        open_rows "$port" fw "$label" "$group" 0 "$pid" "$LAST_REQ_S"
      fi
    done
    stop_server "$pid"
  done
}

# ---- the run ---------------------------------------------------------------------------------

words() { wc -w <<<"$*"; }

wanted() { [[ " $ONLY " == *" $1 "* ]]; } # wanted PART: is PART in ONLY?

# About how long the run takes with these knobs: every load generator is its warmup, its window
# and ~3 s of JVM start and drain; every server its warmup and ~5 s to start.
expected_seconds() {
  local row=$((WARMUP_S + DURATION_S + 3)) server=$((SERVER_WARMUP_S + 5))
  local m k l g t p total=0
  m=$(words "$SHAPES_M") k=$(words "$SHAPES_KEYS") l=$(words "$LOADS") g=$(words "$GCS")
  t=$(words "$TOPOLOGIES") p=$(words "$PEER_KEYS")
  local per_store=$((server + (2 * m * k + 2 * l + 2) * row))
  if wanted redis-benchmark; then total=$((total + 2 * (DURATION_S + 3))); fi
  if wanted bucket4j; then total=$((total + p * row)); fi
  if wanted nothing; then total=$((total + 2 * (server + (m + l) * row))); fi
  if wanted memory; then total=$((total + per_store)); fi
  if wanted redis; then total=$((total + t * per_store + 10 * $(words "${TOPOLOGIES//standalone/}"))); fi
  if wanted gc; then total=$((total + g * 2 * (server + 2 * row))); fi
  echo "$total"
}

# Free page reporting (virtio-balloon): the guest tells the host which freed blocks of 2 MiB or
# more it may take back; the host drops them and backs them again on the next touch. The sysfs
# files exist only on such guests; reported_kib only on kernels that count.
PAGE_REPORTING_DIR=/sys/module/page_reporting/parameters
PAGE_REPORTING=${PAGE_REPORTING:-keep}
[[ $PAGE_REPORTING == keep || $PAGE_REPORTING == hold ]] ||
  { echo "compare: PAGE_REPORTING is keep or hold, not '$PAGE_REPORTING'" >&2; exit 2; }
SAVED_REPORTING_ORDER=""

page_reporting_state() { # one line: on/off, the order, GiB reported so far
  [[ -r $PAGE_REPORTING_DIR/page_reporting_order ]] || { echo "none (no virtio-balloon free page reporting)"; return; }
  local order reported=""
  order=$(cat "$PAGE_REPORTING_DIR/page_reporting_order")
  [[ -r $PAGE_REPORTING_DIR/reported_kib ]] &&
    reported=$(awk '{printf ", %.1f GiB reported to the host since boot", $1 / 1048576}' "$PAGE_REPORTING_DIR/reported_kib")
  echo "order $order ($( ((order > 10)) && echo held || echo "on: freed blocks of $((4 << order)) KiB go back to the host"))$reported"
}

hold_page_reporting() {
  [[ $PAGE_REPORTING == hold ]] || return 0
  [[ -w $PAGE_REPORTING_DIR/page_reporting_order ]] ||
    die "PAGE_REPORTING=hold needs root and $PAGE_REPORTING_DIR/page_reporting_order"
  SAVED_REPORTING_ORDER=$(cat "$PAGE_REPORTING_DIR/page_reporting_order")
  echo 11 >"$PAGE_REPORTING_DIR/page_reporting_order" # above the largest buddy order: nothing qualifies
  log "free page reporting held for the run (order $SAVED_REPORTING_ORDER restored at exit)"
}

restore_page_reporting() {
  [[ -n $SAVED_REPORTING_ORDER ]] || return 0
  echo "$SAVED_REPORTING_ORDER" >"$PAGE_REPORTING_DIR/page_reporting_order" 2>/dev/null || true
  SAVED_REPORTING_ORDER=""
}

machine() {
  echo "machine: $(nproc) cores, $(lscpu 2>/dev/null | awk -F: '/Model name/{gsub(/^ +/,"",$2); print $2; exit}'), $(free -g | awk '/^Mem:/{print $2}') GiB memory"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "redis: $(redis-server --version | awk '{print $3}')"
  echo "sluice: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
  local quick=""
  [[ $QUICK == 1 ]] && quick=", QUICK=1 smoke (not figures)"
  echo "settings: concurrency $CONCURRENCY, channels $CHANNELS, duration ${DURATION_S}s, warmup ${WARMUP_S}s (server ${SERVER_WARMUP_S}s), limits ${LIMIT_PER_SECOND}/s (burst $BURST), open loop at ${LOADS:-no} %, redis connections ${REDIS_CONNECTIONS:-Sluice default}, redis timeout ${REDIS_TIMEOUT:-Sluice default}$quick"
  echo "pinning: $PIN_NOTE"
  echo "free page reporting at start: $REPORTING_AT_START"
  echo "load generator JVM (sluice bench): ${GEN_JAVA_OPTS[*]:-JVM defaults}; JIT threads at nice ${GEN_JIT_NICE:-unchanged} in the window"
  echo "server JVM: ${BASE_JAVA_OPTS[*]} (collector in use: $MAIN_COLLECTOR${GC:+, GC=$GC})"
}

print_table() {
  awk -F'\t' -v start_load="$1" -v end_load="$2" '
    function ratio(v, ref) { return (ref > 0 && v != "-") ? sprintf("%.2f", v / ref) : "-" }
    { label[NR]=$1; group[NR]=$2; m[NR]=$3; keys[NR]=$4; req[NR]=$5; p50[NR]=$6; p99[NR]=$7;
      p999[NR]=$8; err[NR]=$9; cmds[NR]=$10; reads[NR]=$11; rtreq[NR]=$12; rcpu[NR]=$13;
      scpu[NR]=$14; ccpu[NR]=$15; gcn[NR]=$16; gcms[NR]=$17; gcmax[NR]=$18; node[NR]=$19
      cgc[NR] = ($20 == "") ? "-" : $20
      dec[NR] = $5 * $3
      if ($1 == "redis-benchmark P1") r1 = dec[NR]
      if ($1 == "redis-benchmark P16") r16 = dec[NR]
      if ($2 == "bucket4j") b4j[$4] = dec[NR]
      if ($2 == "ceiling" && $1 !~ /@/) ceil[$3] = $5 }
    END {
      fmt = "%-34s %2s %-6s %7s %7s %7s %7s %7s %4s %5s %5s %5s %5s %6s %6s %6s %7s %6s %6s %4s %6s %6s %-7s %s\n"
      printf fmt, "what", "M", "keys", "req/s", "dec/s", "p50 ms", "p99 ms", "p999ms", "err",
        "/rP1", "/rP16", "/b4j", "/ceil", "cmd/dc", "rt/dec", "rt/req", "redisus", "srv us",
        "cli us", "gc n", "gc ms", "gc max", "cli gc", "redisus/node"
      for (i = 1; i <= NR; i++) {
        open = label[i] ~ /@/
        printf fmt, label[i], m[i], keys[i], sprintf("%.0f", req[i]), sprintf("%.0f", dec[i]),
          p50[i], p99[i], p999[i], err[i],
          open ? "-" : ratio(dec[i], r1), open ? "-" : ratio(dec[i], r16),
          open ? "-" : ratio(dec[i], b4j[keys[i]]),
          (open || group[i] == "redis" || group[i] == "bucket4j") ? "-" : ratio(req[i], ceil[m[i]]),
          cmds[i], reads[i], rtreq[i], rcpu[i], scpu[i], ccpu[i], gcn[i], gcms[i], gcmax[i], cgc[i], node[i]
      }
      print ""
      print "M: descriptors per request. dec/s = req/s x M: one decision is one counted descriptor."
      print "err: requests of the window that failed (gRPC errors, deadlines included): must be 0."
      print "/rP1, /rP16: dec/s over redis-benchmark EVALSHA token_bucket.lua unpipelined / -P 16."
      print "/b4j: dec/s over Bucket4j with the same keys. /ceil: req/s over the do-nothing server at the"
      print "same M (the tuned transport when both ran)."
      print "cmd/dc: Redis total_commands_processed per decision (commands inside Lua count too)."
      print "rt/dec, rt/req: Redis total_reads_processed (~ round trips) per decision, per request."
      print "redisus, srv us, cli us: CPU microseconds per decision of redis-server (summed over a"
      print "cluster'"'"'s masters; redisus/node: each master over the decisions it served), of the server"
      print "JVM (Sluice, bench-server, or Bucket4j in-process) and of the load generator, in the window."
      print "gc n, gc ms, gc max: the server JVM'"'"'s stop-the-world GC pauses logged in the window:"
      print "count, total and longest, ms. cli gc: the load generator'"'"'s (sluice bench) pauses in the"
      print "window, count/total ms: a pause there delays every request due during it."
      print "@N%: open loop (bench --rate) at N % of the closed-loop req/s of the row it follows, latency"
      print "from each request'"'"'s due time. gc=NAME: that collector instead of the default one."
      printf "load average at start: %s; at end: %s\n", start_load, end_load
    }' "$RESULTS"
  echo "free page reporting at end: $(page_reporting_state)"
  local note
  for note in "${NOTES[@]}"; do
    echo "NOTE: $note"
  done
  for note in "${ERROR_ROWS[@]}"; do
    echo "ERRORS: $note"
  done
  if awk -v l="${1%% *}" -v n="$(nproc)" 'BEGIN{exit !(l > n / 2)}'; then
    echo "WARNING: the machine was busy before the run (1-minute load ${1%% *} on $(nproc) cores):"
    echo "         other processes shared the CPUs, so absolute figures are low and noisy."
  fi
}

main() {
  local start_load end_load started=$SECONDS
  start_load=$(cut -d' ' -f1-3 /proc/loadavg)
  NOTES=()
  ERROR_ROWS=()
  SERVER_GC_LOG=""
  local expected
  expected=$(expected_seconds)
  log "expected duration: about $((expected / 60)) min $((expected % 60)) s, plus a build when the sources are newer than the jars"
  build_if_needed
  # Copies: a rebuild in this tree during the run must not pull the jar from under a JVM.
  cp target/sluice.jar target/benchmarks.jar "$WORK/"
  SLUICE_JAR=$WORK/sluice.jar
  BENCH_JAR=$WORK/benchmarks.jar
  hold_page_reporting
  REPORTING_AT_START=$(page_reporting_state)
  setup_pinning
  read -r -a BASE_JAVA_OPTS <<<"${SERVER_JAVA_OPTS-$(dockerfile_java_opts)}"
  jvm_opts "${GC:-}" probe
  MAIN_COLLECTOR=$(collector_in_use "${JOPTS[@]}")
  log "$PIN_NOTE; server JVM options ${BASE_JAVA_OPTS[*]}: collector $MAIN_COLLECTOR"
  local gc
  for gc in $GCS; do collector_opts "$gc" >/dev/null; done # unknown names fail now, not at the end
  write_rules
  start_redis
  log "redis-server on port $REDIS_PORT, work dir $WORK"

  if wanted redis-benchmark; then
    measure_redis_benchmark "redis-benchmark P1" 1
    measure_redis_benchmark "redis-benchmark P16" 16
  fi

  local keys
  wanted bucket4j || PEER_KEYS=""
  for keys in $PEER_KEYS; do
    measure_jvm "bucket4j jedis cas" bucket4j 1 1 "" self -- \
      "${GEN_PIN[@]}" java -cp "$BENCH_JAR" dev.sluice.peer.Bucket4jPeer \
      --redis "redis://127.0.0.1:$REDIS_PORT" --threads "$CONCURRENCY" \
      --duration-s "$DURATION_S" --warmup-s "$WARMUP_S" --keys "$keys" \
      --capacity "$BURST" --refill-per-second "$LIMIT_PER_SECOND" --json
  done

  if wanted nothing; then ceiling_rows; fi
  if wanted memory; then sluice_rows memory memory; fi
  local topology
  wanted redis || TOPOLOGIES=""
  for topology in $TOPOLOGIES; do
    case $topology in
      standalone) start_redis_urls_standalone ;;
      cluster) start_cluster ;;
      sentinel) start_sentinel ;;
      *) die "unknown topology '$topology' in TOPOLOGIES (standalone, cluster, sentinel)" ;;
    esac
    sluice_rows redis "$([[ $topology == standalone ]] && echo redis || echo "redis-$topology")"
  done
  start_redis_urls_standalone
  wanted gc || GCS=""
  for gc in $GCS; do
    gc_rows "$gc"
  done

  end_load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo
  echo "bench/compare.sh, $(date -u +%Y-%m-%dT%H:%MZ), $((SECONDS - started)) s (expected about $expected s)"
  machine
  echo
  print_table "$start_load" "$end_load"
  if wanted h2load; then
    echo
    echo "The same shapes with h2load as the load generator (bench/h2load.sh):"
    SKIP_BUILD=1 bench/h2load.sh
  fi
}

main "$@"
