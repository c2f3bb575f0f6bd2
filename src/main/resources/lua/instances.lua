-- Live instances for split consistency: marks one instance live and counts the live ones, on
-- Redis's own clock (so instances with skewed clocks agree on who has expired).
--
-- KEYS[1]  the sorted set of instances, e.g. sluice_instances; member: instance id, score: the
--          millisecond (Redis TIME) its mark expires
-- ARGV[1]  this instance's id
-- ARGV[2]  how long the mark lives, milliseconds (a few heartbeat intervals)
--
-- Drops expired members, adds or refreshes this one, and expires the whole set ARGV[2]
-- milliseconds after the newest mark, so a fleet that is gone leaves nothing behind.
--
-- Reply, an integer: the number of live instances, this one included.

local ttl = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return redis.call('ZCARD', KEYS[1])
