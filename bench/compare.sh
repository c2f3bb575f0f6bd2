#!/usr/bin/env bash
# One comparison run on this machine, printed as ONE table:
#   (1) redis-benchmark running Sluice's token_bucket.lua via EVALSHA, unpipelined and -P 16: the
#       physical limit of one Redis;
#   (2) Bucket4j's Redis bucket (Jedis, CAS) in-process, random keys and one hot key;
#   (3) the do-nothing RLS server driven by `sluice bench`: the gRPC ceiling;
#   (4) Sluice end to end over gRPC, memory and Redis stores, a fixed-window and a token-bucket
#       rule, 1 and 4 descriptors per request, hot and random keys;
#   plus p50/p99/p999 at half the measured maximum (open loop, `bench --rate`).
# Per row also Redis commands and reads (~round trips) per decision from INFO stats deltas, CPU
# per decision of Redis and of the server JVM from /proc/PID/stat deltas, and of the load
# generator as it reports itself (its JSON's cpu_s). All deltas cover exactly the measured
# window: they are taken when the load generator prints "bench: measuring" / "window closed".
#
# Usage: bench/compare.sh            (from anywhere; builds the jars when sources are newer)
# Env:   DURATION=10s  WARMUP=4s (each load generator)  SERVER_WARMUP=10s (each server, once)
#        CONCURRENCY=64  CHANNELS=2  REDIS_CONNECTIONS=(Sluice default)
#        REDIS_TIMEOUT=100ms (Sluice's default 10ms times out here: the load generator, Sluice and
#        Redis share 2 cores, so a lane thread can wait >10 ms for a CPU; see BENCHMARKS.md)
#        SKIP_BUILD=1 to use the jars as they are.
#        TOPOLOGIES="standalone cluster sentinel" adds Sluice rows on a 3-master Redis Cluster
#        (redis-cluster://, no replicas: 3 redis-servers) and through sentinels (1 master,
#        1 replica, 3 sentinels); default "standalone". On a cluster the Redis columns are summed
#        over the masters, so cmd/dec, rt/dec and redisus compare directly with the single node:
#        equal figures mean the per-node cost of a decision did not grow.
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
DURATION_S=$(seconds "${DURATION:-10s}")
WARMUP_S=$(seconds "${WARMUP:-4s}")
SERVER_WARMUP_S=$(seconds "${SERVER_WARMUP:-10s}")
CONCURRENCY=${CONCURRENCY:-64}
CHANNELS=${CHANNELS:-2}
(( DURATION_S >= 3 )) || { echo "compare: DURATION must be at least 3s" >&2; exit 2; }

# The rules Sluice serves; the peers get the same numbers.
LIMIT_PER_SECOND=100000 # high enough that a hot key is counted, not refused
BURST=100000

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sluice-compare.XXXXXX")
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

# A port for redis-server: nothing listens on it (probed with /dev/tcp), never 6379, and below
# the kernel's ephemeral range, so no outgoing connection of this run can hold it. The JVMs
# bind port 0 and report the port they got.
free_port() {
  local low port
  low=$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  ((low > 11000)) || low=32768
  for _ in $(seq 1 200); do
    port=$(((RANDOM * 32768 + RANDOM) % (low - 10000) + 10000))
    ((port == 6379)) && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  die "no free port found"
}

# wait_for DESCRIPTION SECONDS COMMAND...: polls COMMAND until it succeeds or the deadline passes.
wait_for() {
  local what=$1 limit=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "$what not ready after ${limit}s"
    sleep 0.2
  done
}

# Forget a process once it has been waited for, so cleanup never signals a reused PID.
forget_pid() {
  local kept=() pid
  for pid in "${PIDS[@]}"; do
    [[ $pid == "$1" ]] || kept+=("$pid")
  done
  PIDS=("${kept[@]}")
}

# start_bg NAME COMMAND...: runs COMMAND in the background, logging to $WORK/NAME.log; sets BG_PID.
start_bg() {
  local name=$1
  shift
  "$@" >"$WORK/$name.log" 2>&1 &
  BG_PID=$!
  PIDS+=("$BG_PID")
}

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
  # Fields after "(comm) ": state is 1st, utime 12th, stime 13th.
  sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}'
}

redis_stat() { # total_commands_processed total_reads_processed, summed over STAT_PORTS
  local port
  for port in "${STAT_PORTS[@]}"; do
    redis-cli -p "$port" info stats
  done | awk -F: '/^total_commands_processed:/{gsub(/\r/,"",$2); c+=$2}
                  /^total_reads_processed:/{gsub(/\r/,"",$2); r+=$2} END{print c, r}'
}

redis_ticks() { # CPU ticks of every data node in STAT_PIDS
  local pid sum=0
  for pid in "${STAT_PIDS[@]}"; do
    sum=$((sum + $(cpu_ticks "$pid")))
  done
  echo "$sum"
}

flush_data() {
  local port
  for port in "${STAT_PORTS[@]}"; do
    redis-cli -p "$port" flushall >/dev/null
  done
}

# snapshot SERVER_PID CLIENT_PID -> "nanos redis_cmds redis_reads redis_ticks server_ticks client_ticks"
snapshot() {
  echo "$(date +%s%N) $(redis_stat) $(redis_ticks) $(cpu_ticks "$1") $(cpu_ticks "$2")"
}

json_field() { # json_field NAME JSON_LINE
  sed -E "s/.*\"$1\":\"?([^,\"}]*)\"?.*/\1/" <<<"$2"
}

# record LABEL GROUP M KEYS REQ_S P50_MS P99_MS P999_MS CMDS READS REDIS_US SERVER_US CLIENT_US
record() {
  local IFS=$'\t'
  echo "$*" >>"$RESULTS"
}

# per_decision BEFORE AFTER DECISIONS USES_REDIS SERVER CLIENT
#   -> "cmds reads redis_us server_us client_us" per decision between the two snapshots.
per_decision() {
  awk -v a="$1" -v b="$2" -v decisions="$3" -v redis="$4" -v server="$5" -v client="$6" \
    -v tck="$CLK_TCK" 'BEGIN {
      split(a, x, " "); split(b, y, " ");
      if (decisions <= 0) { print "- - - - -"; exit }
      us = 1e6 / tck;
      cmds = redis ? sprintf("%.2f", (y[2] - x[2]) / decisions) : "-";
      reads = redis ? sprintf("%.2f", (y[3] - x[3]) / decisions) : "-";
      rcpu = redis ? sprintf("%.1f", (y[4] - x[4]) * us / decisions) : "-";
      scpu = server ? sprintf("%.1f", (y[5] - x[5]) * us / decisions) : "-";
      ccpu = client ? sprintf("%.1f", (y[6] - x[6]) * us / decisions) : "-";
      print cmds, reads, rcpu, scpu, ccpu }'
}

# wait_line FILE TEXT SECONDS PID: until FILE holds TEXT; fails when PID ends first.
wait_line() {
  local deadline=$((SECONDS + $3))
  until grep -qF "$2" "$1" 2>/dev/null; do
    alive "$4" || die "the load generator ended before printing '$2': $(tail -5 "$1")"
    ((SECONDS < deadline)) || die "no '$2' after $3 s: $(tail -5 "$1")"
    sleep 0.05
  done
}

# measure_jvm LABEL GROUP M USES_REDIS SERVER_PID SELF -- COMMAND...
#   Runs a load generator that prints "bench: measuring" and "bench: window closed" on stderr
#   and one BenchResult JSON line on stdout; the snapshots are taken at those two lines, so the
#   counters cover the measured window (warmup, JVM start-up and the drain are left out).
#   SELF: the load generator is the system under test (Bucket4j): its CPU goes in the server column.
measure_jvm() {
  local label=$1 group=$2 m=$3 redis=$4 server=$5 self=$6
  shift 7
  [[ $redis == 1 ]] && flush_data
  log "measuring: $label"
  # Fresh files per run, made before the launch: the child truncates its own output only once
  # it runs, so reusing one file could show the previous run's lines to wait_line.
  RUN_NO=$((RUN_NO + 1))
  local out="$WORK/run-$RUN_NO.json" err="$WORK/run-$RUN_NO.err"
  : >"$out"
  : >"$err"
  "$@" >"$out" 2>"$err" &
  local client=$!
  PIDS+=("$client")
  local server_pid=$server
  [[ $self == self ]] && server_pid=""
  local before after
  wait_line "$err" "bench: measuring" $((WARMUP_S + 120)) "$client"
  before=$(snapshot "$server_pid" "")
  wait_line "$err" "bench: window closed" $((DURATION_S + 60)) "$client"
  after=$(snapshot "$server_pid" "")
  wait "$client" || die "$label failed: $(tail -5 "$err")"
  forget_pid "$client"
  local json
  json=$(tail -1 "$out")
  [[ $json == \{* ]] || die "$label printed no JSON: $(tail -5 "$err")"
  local errors
  errors=$(json_field errors "$json")
  ((errors == 0)) || log "warning: $label had $errors errors: $(grep -m1 '^first' "$err")"
  local decisions
  decisions=$(awk -v ok="$(json_field ok "$json")" -v over="$(json_field over_limit "$json")" \
    -v m="$m" 'BEGIN{print (ok + over) * m}')
  read -r cmds reads rcpu scpu ccpu < <(per_decision "$before" "$after" "$decisions" \
    "$([[ $redis == 1 ]] && echo 1 || echo 0)" "$([[ -n $server_pid ]] && echo 1 || echo 0)" 0)
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
  LAST_REQ_S=$(json_field decisions_per_s "$json")
  record "$label" "$group" "$m" "$(json_field keys "$json")" "$LAST_REQ_S" \
    "$(awk -v u="$(json_field p50_us "$json")" 'BEGIN{printf "%.3f", u/1000}')" \
    "$(awk -v u="$(json_field p99_us "$json")" 'BEGIN{printf "%.3f", u/1000}')" \
    "$(awk -v u="$(json_field p999_us "$json")" 'BEGIN{printf "%.3f", u/1000}')" \
    "$cmds" "$reads" "$rcpu" "$scpu" "$ccpu"
}

# bench_cmd PORT KEY_ENTRY M KEYS [extra flags...]: sets CMD to a `sluice bench` command line
# (an array, not a function, so that $! of the background job is the JVM's own PID).
bench_cmd() {
  local port=$1 entry=$2 m=$3 keys=$4
  shift 4
  CMD=(java -jar "$SLUICE_JAR" bench --target "127.0.0.1:$port"
    --concurrency "$CONCURRENCY" --channels "$CHANNELS"
    --duration "${DURATION_S}s" --warmup "${WARMUP_S}s" --domain bench
    --descriptor "$entry=" --descriptors-per-request "$m" --keys "$keys" --json "$@")
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
  quick=$(redis-benchmark -n $((CONCURRENCY * 300)) -q "${args[@]}" 2>/dev/null | tr '\r' '\n' |
    grep 'requests per second' | tail -1)
  rps=$(sed -E 's/.*: ([0-9.]+) requests per second.*/\1/' <<<"$quick")
  n=$(awk -v r="$rps" -v d="$DURATION_S" 'BEGIN{n=int(r*d); print (n < 10000 ? 10000 : n)}')
  redis-cli -p "$REDIS_PORT" flushall >/dev/null
  log "measuring: $label ($n requests)"
  local before after
  before=$(snapshot "" "")
  redis-benchmark -n "$n" "${args[@]}" 2>/dev/null | tr '\r' '\n' >"$WORK/rb.out"
  after=$(snapshot "" "")
  local req_s
  req_s=$(awk '/throughput summary/{print $3}' "$WORK/rb.out")
  read -r cmds reads rcpu _ _ < <(per_decision "$before" "$after" "$n" 1 0 0)
  record "$label" redis 1 random "$req_s" "$(rb_percentile "$WORK/rb.out" 50)" \
    "$(rb_percentile "$WORK/rb.out" 99)" "$(rb_percentile "$WORK/rb.out" 99.9)" \
    "$cmds" "$reads" "$rcpu" "-" "-"
}

# The single redis-server of start_redis, for the standalone rows (after other topologies ran).
start_redis_urls_standalone() {
  STAT_PORTS=("$REDIS_PORT")
  STAT_PIDS=("$REDIS_PID")
  SLUICE_REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
}

start_redis() {
  REDIS_PORT=$(free_port)
  start_bg redis redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' \
    --appendonly no --protected-mode yes
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
    start_bg "cluster-$port" redis-server --bind 127.0.0.1 --port "$port" --save '' \
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
  start_bg "sentinel-master" redis-server --bind 127.0.0.1 --port "$master" --save '' --appendonly no
  local master_pid=$BG_PID
  wait_for "sentinel master on $master" 20 redis-cli -p "$master" ping
  replica=$(free_port)
  start_bg "sentinel-replica" redis-server --bind 127.0.0.1 --port "$replica" --save '' \
    --appendonly no --replicaof 127.0.0.1 "$master"
  wait_for "replica on $replica" 20 redis-cli -p "$replica" ping
  for i in 1 2 3; do
    port=$(free_port)
    printf 'sentinel monitor bench 127.0.0.1 %s 2\nsentinel down-after-milliseconds bench 2000\n' \
      "$master" >"$WORK/sentinel-$port.conf"
    start_bg "sentinel-$port" redis-server "$WORK/sentinel-$port.conf" --sentinel \
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
EOF
}

healthy() { curl -sf "http://127.0.0.1:$1/healthcheck"; }

# warm_server PORT ENTRY...: one unmeasured client per ENTRY, in parallel, for SERVER_WARMUP, so
# the first measured row does not pay for the server JVM's JIT compilation.
warm_server() {
  local port=$1 entry pids=() n=0
  shift
  log "warming the server on port $port for ${SERVER_WARMUP_S}s"
  for entry in "$@"; do
    java -jar "$SLUICE_JAR" bench --target "127.0.0.1:$port" --concurrency "$CONCURRENCY" \
      --channels "$CHANNELS" --duration "${SERVER_WARMUP_S}s" --warmup 0s --domain bench \
      --descriptor "$entry=" --descriptors-per-request 4 --keys random \
      >"$WORK/warm-$port-$((++n)).log" 2>&1 &
    pids+=($!)
    PIDS+=("$!")
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || die "warming failed: $(tail -3 "$WORK"/warm-*.log)"
    forget_pid "$pid"
  done
}

# start_sluice STORE -> SLUICE_PID, SLUICE_PORT (Sluice binds free ports and logs them)
start_sluice() {
  local store=$1
  local args=(serve --config "$WORK/rules" --store "$store" --grpc-port 0 --http-port 0
    --redis-url "$SLUICE_REDIS_URL")
  [[ -n ${REDIS_CONNECTIONS:-} ]] && args+=(--redis-connections "$REDIS_CONNECTIONS")
  args+=(--redis-timeout "${REDIS_TIMEOUT:-100ms}")
  start_bg "sluice-$store" java -jar "$SLUICE_JAR" "${args[@]}"
  SLUICE_PID=$BG_PID
  wait_line "$WORK/sluice-$store.log" "Sluice ready" 90 "$SLUICE_PID"
  local ready
  ready=$(grep -m1 "Sluice ready" "$WORK/sluice-$store.log")
  SLUICE_PORT=$(sed -E 's/.*grpc port ([0-9]+).*/\1/' <<<"$ready")
  local http
  http=$(sed -E 's/.*http port ([0-9]+).*/\1/' <<<"$ready")
  wait_for "sluice serve --store $store" 30 healthy "$http"
  warm_server "$SLUICE_PORT" fw tb
}

sluice_rows() { # sluice_rows STORE [LABEL]
  local store=$1 label=${2:-$1} redis=0
  [[ $store == redis ]] && redis=1
  start_sluice "$store"
  local rule m keys
  for rule in fw tb; do
    for m in 1 4; do
      for keys in random hot; do
        bench_cmd "$SLUICE_PORT" "$rule" "$m" "$keys"
        measure_jvm "sluice $label $rule" "sluice-$label" "$m" "$redis" "$SLUICE_PID" - -- \
          "${CMD[@]}"
        if [[ $m == 1 && $keys == random ]]; then
          local half
          half=$(awk -v r="$LAST_REQ_S" 'BEGIN{printf "%.0f", r / 2}')
          bench_cmd "$SLUICE_PORT" "$rule" 1 random --rate "$half"
          measure_jvm "sluice $label $rule @50%" "half" 1 "$redis" "$SLUICE_PID" - -- \
            "${CMD[@]}"
        fi
      done
    done
  done
  stop_pid "$SLUICE_PID"
  forget_pid "$SLUICE_PID"
}

# ---- the run ---------------------------------------------------------------------------------

machine() {
  echo "machine: $(nproc) cores, $(lscpu 2>/dev/null | awk -F: '/Model name/{gsub(/^ +/,"",$2); print $2; exit}'), $(free -g | awk '/^Mem:/{print $2}') GiB memory"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "redis: $(redis-server --version | awk '{print $3}')"
  echo "sluice: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
  echo "settings: concurrency $CONCURRENCY, channels $CHANNELS, duration ${DURATION_S}s, warmup ${WARMUP_S}s (server ${SERVER_WARMUP_S}s), limits ${LIMIT_PER_SECOND}/s (burst $BURST), redis connections ${REDIS_CONNECTIONS:-Sluice default}, redis timeout ${REDIS_TIMEOUT:-100ms}"
}

print_table() {
  awk -F'\t' -v start_load="$1" -v end_load="$2" '
    function ratio(v, ref) { return (ref > 0 && v != "-") ? sprintf("%.2f", v / ref) : "-" }
    { label[NR]=$1; group[NR]=$2; m[NR]=$3; keys[NR]=$4; req[NR]=$5; p50[NR]=$6; p99[NR]=$7;
      p999[NR]=$8; cmds[NR]=$9; reads[NR]=$10; rcpu[NR]=$11; scpu[NR]=$12; ccpu[NR]=$13;
      dec[NR] = $5 * $3
      if ($1 == "redis-benchmark P1") r1 = dec[NR]
      if ($1 == "redis-benchmark P16") r16 = dec[NR]
      if ($2 == "bucket4j") b4j[$4] = dec[NR]
      if ($2 == "ceiling" && $1 !~ /@/) ceil[$3] = $5 }
    END {
      fmt = "%-24s %2s %-6s %9s %9s %8s %8s %8s %6s %6s %6s %6s %7s %7s %8s %8s %8s\n"
      printf fmt, "what", "M", "keys", "req/s", "dec/s", "p50 ms", "p99 ms", "p999 ms",
        "/rP1", "/rP16", "/b4j", "/ceil", "cmd/dec", "rt/dec", "redisus", "srv us", "cli us"
      for (i = 1; i <= NR; i++) {
        half = label[i] ~ /@/
        printf fmt, label[i], m[i], keys[i], sprintf("%.0f", req[i]), sprintf("%.0f", dec[i]),
          p50[i], p99[i], p999[i],
          half ? "-" : ratio(dec[i], r1), half ? "-" : ratio(dec[i], r16),
          half ? "-" : ratio(dec[i], b4j[keys[i]]),
          (half || group[i] == "redis" || group[i] == "bucket4j") ? "-" : ratio(req[i], ceil[m[i]]),
          cmds[i], reads[i], rcpu[i], scpu[i], ccpu[i]
      }
      print ""
      print "M: descriptors per request. dec/s = req/s x M: one decision is one counted descriptor."
      print "/rP1, /rP16: dec/s over redis-benchmark EVALSHA token_bucket.lua unpipelined / -P 16."
      print "/b4j: dec/s over Bucket4j with the same keys. /ceil: req/s over the do-nothing server at the same M."
      print "cmd/dec: Redis total_commands_processed per decision (commands inside Lua count too)."
      print "rt/dec: Redis total_reads_processed per decision (~ round trips). redisus, srv us, cli us: CPU"
      print "microseconds per decision of redis-server, of the server JVM (Sluice, bench-server, or Bucket4j"
      print "in-process) and of the load generator, over the measured window."
      print "@50%: open loop (bench --rate) at half the closed-loop req/s of the row above; latency from the due time."
      printf "load average at start: %s; at end: %s\n", start_load, end_load
    }' "$RESULTS"
  if awk -v l="${1%% *}" -v n="$(nproc)" 'BEGIN{exit !(l > n / 2)}'; then
    echo "WARNING: the machine was busy before the run (1-minute load ${1%% *} on $(nproc) cores):"
    echo "         other processes shared the CPUs, so absolute figures are low and noisy."
  fi
}

main() {
  local start_load end_load
  start_load=$(cut -d' ' -f1-3 /proc/loadavg)
  build_if_needed
  # Copies: a rebuild in this tree during the run must not pull the jar from under a JVM.
  cp target/sluice.jar target/benchmarks.jar "$WORK/"
  SLUICE_JAR=$WORK/sluice.jar
  BENCH_JAR=$WORK/benchmarks.jar
  write_rules
  start_redis
  log "redis-server on port $REDIS_PORT, work dir $WORK"

  measure_redis_benchmark "redis-benchmark P1" 1
  measure_redis_benchmark "redis-benchmark P16" 16

  local keys
  for keys in random hot; do
    measure_jvm "bucket4j jedis cas" bucket4j 1 1 "" self -- \
      java -cp "$BENCH_JAR" dev.sluice.peer.Bucket4jPeer \
      --redis "redis://127.0.0.1:$REDIS_PORT" --threads "$CONCURRENCY" \
      --duration-s "$DURATION_S" --warmup-s "$WARMUP_S" --keys "$keys" \
      --capacity "$BURST" --refill-per-second "$LIMIT_PER_SECOND" --json
  done

  start_bg bench-server java -jar "$SLUICE_JAR" bench-server --port 0
  local ceiling_pid=$BG_PID
  wait_line "$WORK/bench-server.log" "answering OK on gRPC port" 60 "$ceiling_pid"
  local ceiling_port
  ceiling_port=$(sed -E 's/.*gRPC port ([0-9]+).*/\1/' <<<"$(grep -m1 "answering OK" \
    "$WORK/bench-server.log")")
  warm_server "$ceiling_port" fw fw
  local m
  for m in 1 4; do
    bench_cmd "$ceiling_port" fw "$m" random
    measure_jvm "grpc ceiling" ceiling "$m" 0 "$ceiling_pid" - -- "${CMD[@]}"
  done
  local half
  half=$(awk -v r="$(awk -F'\t' '$2=="ceiling" && $3==1 {print $5}' "$RESULTS")" \
    'BEGIN{printf "%.0f", r / 2}')
  bench_cmd "$ceiling_port" fw 1 random --rate "$half"
  measure_jvm "grpc ceiling @50%" ceiling 1 0 "$ceiling_pid" - -- "${CMD[@]}"
  stop_pid "$ceiling_pid"
  forget_pid "$ceiling_pid"

  sluice_rows memory
  local topology
  for topology in ${TOPOLOGIES:-standalone}; do
    case $topology in
      standalone) start_redis_urls_standalone ;;
      cluster) start_cluster ;;
      sentinel) start_sentinel ;;
      *) die "unknown topology '$topology' in TOPOLOGIES (standalone, cluster, sentinel)" ;;
    esac
    sluice_rows redis "$([[ $topology == standalone ]] && echo redis || echo "redis-$topology")"
  done

  end_load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo
  echo "bench/compare.sh, $(date -u +%Y-%m-%dT%H:%MZ)"
  machine
  echo
  print_table "$start_load" "$end_load"
}

main "$@"
