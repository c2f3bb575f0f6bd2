-- Fixed window: count ARGV[1] hits and make sure the window's counter expires, in one atomic
-- step. As two pipelined commands (INCRBY, then EXPIRE NX) a pipeline cut off by a timeout could
-- apply the INCRBY and lose the EXPIRE, leaving a counter that never expires (issue 11.9); a script
-- runs whole or not at all.
--
-- KEYS[1]  the window's counter, a string: prefix, counter key and window index, e.g.
--          fw|60|api|user=alice|29334500 ({fw|60|api|user=alice}|29334500 on a cluster)
-- ARGV[1]  hits to count (0 only reads; the key is still created and expires)
-- ARGV[2]  expiry, milliseconds: set only when the key has none (PEXPIRE NX), so it is set once
--          per window and never extended. The caller chooses it (a whole window today).
--
-- Reply, an integer: the count after this call, capped at 2^53. Redis hands a script integers as
-- doubles, exact only up to 2^53; the cap keeps a counter driven near 2^63 from being returned as a
-- wrapped, negative number (still far above any limit, which is at most 2^32 - 1).

local count = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2], 'NX')
return math.min(count, 9007199254740992)
