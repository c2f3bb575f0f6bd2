# Shell helpers the multi-process bench scripts share (bench/consistency.sh, bench/rlqs-compare.sh).
# Sourced after the caller has cd'd to the repository root and defined die, log, WORK and PIDS
# (the processes its cleanup kills).

# A free TCP port on 127.0.0.1, never 6379 (the machine's own Redis).
free_port() {
  local port
  for _ in $(seq 1 200); do
    port=$(((RANDOM * 32768 + RANDOM) % 20000 + 10000))
    ((port == 6379)) && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  die "no free port found"
}
wait_for() {
  local what=$1 limit=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "$what not ready after ${limit}s"
    sleep 0.2
  done
}
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
