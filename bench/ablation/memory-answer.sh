#!/usr/bin/env bash
# What separates Sluice's memory-store answer from the do-nothing server (issue 24's "memory
# >= 0.95x" row). Builds this checkout with memory-answer.patch applied, in a scratch worktree, so
# the shipped jar never carries it, then runs bench/h2load.sh's rows alternating, ROUNDS times:
#   nothing-tuned                  the do-nothing server on Sluice's transport
#   memory-tb -Dsluice.ablate=1    Sluice, answering OK at once like the do-nothing server
#   memory-tb -Dsluice.ablate=2    Sluice deciding as usual, answering like the do-nothing server
#   memory-tb                      Sluice as shipped (the decision's limit, remaining and reset)
# each started at a 1-minute load average under 1. The differences are the server around the
# service, the decision, and the answer's fields.
#
# Usage: bench/ablation/memory-answer.sh      Env: ROUNDS=2, and bench/h2load.sh's (DURATION, ...)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
ROUNDS=${ROUNDS:-2}
die() { echo "memory-answer.sh: $*" >&2; exit 1; }
# shellcheck source=bench/lib/common.sh
source bench/lib/common.sh # quiet_machine
TREE=$(mktemp -d)
cleanup() { git -C "$ROOT" worktree remove --force "$TREE" 2>/dev/null || rm -rf "$TREE"; }
trap cleanup EXIT
git worktree add -q --detach "$TREE" HEAD
git -C "$TREE" apply "$ROOT/bench/ablation/memory-answer.patch" || die "the patch no longer applies to HEAD"
(cd "$TREE" && mvn -B -q -DskipTests package)
[[ -f $ROOT/target/sluice.jar ]] || mvn -B -q -DskipTests package
OPTS=$(grep -E '^-X' deploy/image/jvm.options | tr '\n' ' ')
row() { # LABEL ROW JAR [JVM OPTION]
  quiet_machine 1 || true
  echo "$1 (load average before $(cut -d' ' -f1 /proc/loadavg)):"
  JAR=$3 SERVER_JAVA_OPTS="$OPTS ${4:-}" ROWS=$2 bench/h2load.sh | grep -E "^\| $2 "
}
for round in $(seq "$ROUNDS"); do
  echo "round $round"
  row "do-nothing, tuned transport" nothing-tuned "$ROOT/target/sluice.jar"
  row "Sluice, constant OK answer" memory-tb "$TREE/target/sluice.jar" -Dsluice.ablate=1
  row "Sluice, decides, constant OK answer" memory-tb "$TREE/target/sluice.jar" -Dsluice.ablate=2
  row "Sluice as shipped" memory-tb "$ROOT/target/sluice.jar"
done
