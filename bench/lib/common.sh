# Shell helpers the bench scripts share (compare.sh, embedded.sh, h2load.sh, goodput-h2load.sh,
# consistency.sh, rlqs-compare.sh, ablation/memory-answer.sh). Sourced after the caller has cd'd
# to the repository root and defined die (and log, WORK and PIDS, the processes its cleanup kills,
# for the helpers that use them).

# A port nothing listens on (probed with /dev/tcp), never 6379 (the machine's own Redis), and below
# the kernel's ephemeral range, so no outgoing connection of the run can hold it. The JVMs that can
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

# Builds target/sluice.jar when it is missing or older than the sources (SKIP_BUILD=1 skips it)
# and sets JAR to a copy in WORK.
ensure_jar() {
  if [[ ${SKIP_BUILD:-0} != 1 ]] && { [[ ! -f target/sluice.jar ]] ||
    [[ -n $(find src pom.xml -newer target/sluice.jar -print -quit) ]]; }; then
    log "building target/sluice.jar"
    mvn -B -q -DskipTests package >"$WORK/build.log" 2>&1 || die "build failed: $WORK/build.log"
  fi
  cp target/sluice.jar "$WORK/sluice.jar" # a rebuild during the run must not pull it away
  JAR=$WORK/sluice.jar
}

# grpc_request_body FILE KEY N: one gRPC message (1 flag byte, 4-byte length) holding
# RateLimitRequest{domain=1 "bench", N descriptors=2 of entries=1 {key=1 KEY, value=2 "hot-I"}},
# hand-encoded so no protoc is needed: h2load's request body.
grpc_request_body() {
  python3 - "$@" <<'PY'
import struct, sys
path, key, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def varint(v):
    out = b''
    while True:
        b = v & 0x7f; v >>= 7
        out += bytes([b | (0x80 if v else 0)])
        if not v: return out
def field(num, payload): return bytes([num << 3 | 2]) + varint(len(payload)) + payload
msg = field(1, b'bench')
for i in range(n):
    msg += field(2, field(1, field(1, key.encode()) + field(2, f'hot-{i}'.encode())))
open(path, 'wb').write(b'\x00' + struct.pack('>I', len(msg)) + msg)
PY
}

# CPU ticks the JVM PID's compiler threads (C1/C2) have used, so the JIT's share of a window can be
# told apart, and a loaded warm-up can run until it is (nearly) over.
jit_ticks() {
  local t=0 task
  for task in /proc/"$1"/task/*; do
    grep -q 'CompilerThre' "$task/comm" 2>/dev/null || continue
    t=$((t + $(sed 's/.*) //' "$task/stat" | awk '{print $12 + $13}')))
  done
  echo "$t"
}
TICK=$(getconf CLK_TCK)

# settle_jit PID ROUNDS SECONDS COMMAND...: runs COMMAND (a loaded round of about SECONDS) at most
# ROUNDS times, until one round in which PID's compiler threads used under 1 % of it, so the JIT's
# work does not land in a measured window.
settle_jit() {
  local pid=$1 rounds=$2 secs=$3 j0
  shift 3
  for _ in $(seq "$rounds"); do
    j0=$(jit_ticks "$pid")
    "$@" >/dev/null 2>&1 || true
    (( $(jit_ticks "$pid") - j0 <= secs * TICK / 100 )) && break
  done
  return 0 # still compiling after ROUNDS is not an error: the window prints the JIT's share
}

# quiet_machine [LIMIT] [SECONDS]: waits until the 1-minute load average is under LIMIT (1), for at
# most SECONDS (300): the benchmarks' rule is no figure from a run started above it. A run right
# after another leaves the average above 1 for about a minute. Returns 1 (and says so) if the
# machine stays busy, so a caller can go on and report the load it started at.
quiet_machine() {
  local limit=${1:-1} deadline=$((SECONDS + ${2:-300}))
  until awk -v l="$limit" '{exit !($1 < l)}' /proc/loadavg; do
    if ((SECONDS >= deadline)); then
      echo "load average still $(cut -d' ' -f1 /proc/loadavg) (not under $limit)" >&2
      return 1
    fi
    sleep 2
  done
}
