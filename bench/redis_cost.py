"""Driver of bench/redis-cost.sh: sends each shape's commands as raw RESP, BATCH decisions per
round trip (then a PING, whose reply marks the end of the batch's replies), and prints Redis's
cost per decision: the top-level commands' usec from INFO commandstats, and redis-server's CPU
from /proc/PID/stat. Commands that a script or EXEC runs inside it are counted by Redis too, so
only the top-level ones are summed (EVALSHA's and EXEC's usec include what ran inside them).
"""
import argparse
import os
import random
import re
import socket
import time

FW_WINDOW_S = 60


def resp(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        b = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


class Redis:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def call(self, *args):
        """One command, its reply as text (enough for INFO, SCRIPT LOAD, CONFIG)."""
        self.sock.sendall(resp(*args))
        buf = b""
        while True:
            buf += self.sock.recv(1 << 20)
            if buf.startswith(b"$"):
                head, _, rest = buf.partition(b"\r\n")
                if len(rest) >= int(head[1:]) + 2:
                    return rest[: int(head[1:])].decode()
            elif buf.endswith(b"\r\n"):
                return buf[1:-2].decode()

    def run(self, batches):
        ping = resp("PING")
        for batch in batches:
            self.sock.sendall(batch + ping)
            buf = b""
            while not buf.endswith(b"+PONG\r\n"):
                buf += self.sock.recv(1 << 20)
            if b"-" in buf and re.search(rb"(^|\r\n)-", buf):
                raise SystemExit("error reply: %r" % buf[:300])


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15 of the file)


def tb_batch(sha, keys, capacity, rate, window_s):
    """One EVALSHA of the batch-form token_bucket.lua taking 1 token from each key, in order (as a
    lane on one node sends a batch's token-bucket hits): Redis's TIME (empty time), 4 ARGV per key.
    """
    args = [""]
    for _ in keys:
        args += [capacity, rate, window_s, 1]
    return resp("EVALSHA", sha, len(keys), *keys, *args)


def sw_batch(sha, keys, limit, window_s):
    """One EVALSHA of the batch-form sliding_window.lua counting 1 hit on each key, in order:
    Redis's TIME (empty time), 3 ARGV per key."""
    args = [""]
    for _ in keys:
        args += [limit, window_s, 1]
    return resp("EVALSHA", sha, len(keys), *keys, *args)


def shapes(shas, now_ms):
    """Per shape: (top-level commands, a function building one round trip's commands from its
    decisions' random numbers)."""
    fw_index = now_ms // (FW_WINDOW_S * 1000)

    def each(build):
        return lambda rs: b"".join(build(r) for r in rs)

    def fw_key(r):
        return "fw|60|bench|k=%d|%d" % (r, fw_index)

    def charge_fw(r):
        tag = "{ml|bench|k=%d}" % r
        second, hour = now_ms // 1000, now_ms // 3600000
        keys = [tag + "|fw|1|%d" % second, tag + "|fw|3600|%d" % hour]
        args = [now_ms, 1, 1, 1, 0, 2,
                "fw", 100000, 100000, 1, 1, second * 1000,
                "fw", 1000000, 1000000, 3600, 1, hour * 3600000]
        return resp("EVALSHA", shas["charge"], len(keys), *keys, *args)

    def charge_tb(r):
        keys = ["tb|60|bench|k=%d" % r]
        args = [now_ms, 1, 2, 1, 0, 1, "tb", 1000, 1000, 60, 1, 0]
        return resp("EVALSHA", shas["charge"], 1, *keys, *args)

    return {
        "reference": (["incrby", "expire"],
                      each(lambda r: resp("INCRBY", fw_key(r), 1) + resp("EXPIRE", fw_key(r), FW_WINDOW_S))),
        "fw": (["multi", "exec"],
               each(lambda r: resp("MULTI") + resp("INCRBY", fw_key(r), 1)
                    + resp("PEXPIRE", fw_key(r), FW_WINDOW_S * 1000, "NX") + resp("EXEC"))),
        "fw-script": (["evalsha"],
                      each(lambda r: resp("EVALSHA", shas["fw-script"], 1, fw_key(r), 1, FW_WINDOW_S * 1000))),
        # One node: a round trip's token-bucket hits are one script call.
        "tb": (["evalsha"],
               lambda rs: tb_batch(shas["tb"], ["tb|60|bench|k=%d" % r for r in rs], 1000, 1000, 60)),
        # A cluster: one call per hit (a script touches one slot).
        "tb-single": (["evalsha"],
                      each(lambda r: tb_batch(shas["tb"], ["tb|60|bench|k=%d" % r], 1000, 1000, 60))),
        "tb-hash": (["evalsha"],
                    each(lambda r: resp("EVALSHA", shas["tb-hash"], 1, "tbh|60|bench|k=%d" % r, 1000, 1000, 60, 1))),
        # Refused takes: 100 buckets of 1 token refilling hourly, so all but the first are over.
        "tb-over": (["evalsha"],
                    lambda rs: tb_batch(shas["tb"], ["tb|3600|bench|k=%d" % (r % 100) for r in rs], 1, 1, 3600)),
        "tb-hash-over": (["evalsha"],
                         each(lambda r: resp("EVALSHA", shas["tb-hash"], 1, "tbh|3600|bench|k=%d" % (r % 100), 1, 1, 3600, 1))),
        "sw": (["evalsha"],
               lambda rs: sw_batch(shas["sw"], ["sw|60|bench|k=%d" % r for r in rs], 1000, 60)),
        "sw-single": (["evalsha"],
                      each(lambda r: sw_batch(shas["sw"], ["sw|60|bench|k=%d" % r], 1000, 60))),
        "charge": (["evalsha"], each(charge_fw)),
        "charge-tb": (["evalsha"], each(charge_tb)),
    }


def commandstats(redis):
    stats = {}
    for m in re.finditer(r"cmdstat_(\w+):calls=(\d+),usec=(\d+)", redis.call("INFO", "commandstats")):
        stats[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return stats


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, required=True)
    p.add_argument("--decisions", type=int, default=200000)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--keys", type=int, default=100000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--lua", required=True)
    p.add_argument("--former", required=True)
    p.add_argument("shapes", nargs="+")
    a = p.parse_args()
    redis = Redis(a.port)
    files = {
        "tb": os.path.join(a.lua, "token_bucket.lua"),
        "sw": os.path.join(a.lua, "sliding_window.lua"),
        "charge": os.path.join(a.lua, "charge.lua"),
        "fw-script": os.path.join(a.former, "fixed_window_script.lua"),
        "tb-hash": os.path.join(a.former, "token_bucket_hash.lua"),
    }
    shas = {name: redis.call("SCRIPT", "LOAD", open(path).read()) for name, path in files.items()}
    tick = os.sysconf("SC_CLK_TCK")
    best = {}
    for _ in range(a.rounds):
        for name in a.shapes:
            top, build = shapes(shas, int(time.time() * 1000))[name]
            rng = random.Random(42)
            batches = [build([rng.randrange(a.keys) for _ in range(a.batch)])
                       for _ in range(a.decisions // a.batch)]
            decisions = len(batches) * a.batch
            redis.run(batches[:200])  # warm: scripts compiled, keys of the first batches exist
            redis.call("CONFIG", "RESETSTAT")
            before = cpu_ticks(a.pid)
            redis.run(batches)
            cpu_us = (cpu_ticks(a.pid) - before) * 1e6 / tick / decisions
            stats = commandstats(redis)
            top_us = sum(stats.get(c, (0, 0))[1] for c in top) / decisions
            detail = " ".join("%s=%.2f" % (c, u / n) for c, (n, u) in sorted(stats.items())
                              if c not in ("ping", "info", "config") and n)
            redis.call("FLUSHALL")
            old = best.get(name)
            best[name] = (decisions, min(top_us, old[1]) if old else top_us,
                          min(cpu_us, old[2]) if old else cpu_us,
                          detail if not old or top_us < old[1] else old[3])
    # Under a shared machine's load both figures only grow (commandstats times wall clock, so a
    # preempted command counts the time it waited): each shape's best round is the closest.
    print("%-12s %10s %12s %8s %10s %8s  %s" % (
        "shape", "decisions", "cmdstat us", "x ref", "cpu us", "x ref", "usec_per_call (best round)"))
    reference = best.get("reference")
    for name in a.shapes:
        decisions, top_us, cpu_us, detail = best[name]
        r1 = "%.2f" % (top_us / reference[1]) if reference else "-"
        r2 = "%.2f" % (cpu_us / reference[2]) if reference else "-"
        print("%-12s %10d %12.2f %8s %10.2f %8s  %s" % (name, decisions, top_us, r1, cpu_us, r2, detail))

if __name__ == "__main__":
    main()
