/**
 * The Redis store: {@link dev.sluice.store.redis.RedisCounterStore} sends each algorithm's commands
 * (a fixed window's MULTI/EXEC of INCRBY and PEXPIRE NX; the Lua scripts {@code
 * lua/token_bucket.lua} and {@code lua/sliding_window.lua}), all hits of a request in one pipeline
 * per node. A few {@code PipelineLane}s per node, each one connection and one writer thread, send
 * whatever requests are queued as one pipeline, so under load one round trip carries many requests
 * and no caller's thread waits on Redis; on one node a lane also sends the token-bucket and
 * sliding-window hits of its batch as one script call each ({@code CoalescedScript}). {@code
 * NodeRouting} picks the lanes: one server (or the sentinels' current master, {@code
 * RedisTopology}) or, on a cluster, the master owning each hit's slot ({@code ClusterRouting}).
 * {@code RedisConnector} opens connections (TLS, unix sockets, ACL users, the version check). Jedis
 * types stay inside this package; callers see only {@link dev.sluice.store.CounterStore}.
 */
package dev.sluice.store.redis;
