#!/usr/bin/env bash
# Issue 12: Redis cost per decision of a fixed window, a sliding window and a 2-limit rate_limits
# descriptor. A private redis-server on a free port (never 6379), `sluice serve --store redis`, then
# per rule 3 s warm-up and 6 s of `sluice bench` (32 in flight, random keys) after CONFIG RESETSTAT;
# prints the bench JSON and INFO commandstats/stats. Run from a directory holding rules/bench.yaml
# (the rules are in BENCHMARKS.md); JAR defaults to target/sluice.jar.
set -u
JAR=${JAR:-target/sluice.jar}
PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
redis-server --port $PORT --save '' --appendonly no --daemonize no > redis.log 2>&1 &
RPID=$!
sleep 0.5
java -jar $JAR serve --config rules --store redis --redis-url redis://127.0.0.1:$PORT --grpc-port 0 --http-port 0 --redis-timeout 100ms > sluice.log 2>&1 &
SPID=$!
for i in $(seq 60); do grep -q "Sluice ready" sluice.log && break; sleep 1; done
GRPC=$(grep -m1 "Sluice ready" sluice.log | sed -E 's/.*grpc port ([0-9]+).*/\1/')
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for rule in fw sw ml; do
  java -jar $JAR bench --target 127.0.0.1:$GRPC --domain bench --descriptor "$rule=" --keys random --duration 3s --warmup 3s --concurrency 32 > warm.log 2>&1
  redis-cli -p $PORT CONFIG RESETSTAT > /dev/null
  java -jar $JAR bench --target 127.0.0.1:$GRPC --domain bench --descriptor "$rule=" --keys random --duration 6s --warmup 0s --concurrency 32 --json > $rule.json 2> $rule.err
  redis-cli -p $PORT INFO commandstats | grep -E "cmdstat_(evalsha|eval|incrby|pexpire)" > $rule.cmd
  redis-cli -p $PORT INFO stats | grep -E "total_commands_processed|total_reads_processed" > $rule.stats
  echo "== $rule"; cat $rule.json | head -c 600; echo; cat $rule.cmd $rule.stats
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
kill $SPID; wait $SPID 2>/dev/null; redis-cli -p $PORT shutdown nosave >/dev/null 2>&1; wait $RPID 2>/dev/null
