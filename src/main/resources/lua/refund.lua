-- Refund: gives back hits that lua/charge.lua charged for a request that was refused after all.
-- Only used on a Redis Cluster, where one request's counters can live on several nodes and so
-- cannot be decided in one script: each node charges what fits, then the refused request's
-- charge_denied: false counters are refunded here (see README, "Denied requests charge nothing").
--
-- KEYS     one per hit: the key that was charged (a fixed window's key with its index, a sliding
--          window's hash, or the bucket's string '<tokens> <at>'); the script touches no other key
-- ARGV     per hit, in KEYS order: algorithm (fw, sw, tb), hits to give back, and a third value:
--          the capacity (burst) for a bucket, the window index charged (the hash's field) for a
--          sliding window, unused (0) for a fixed window
--
-- A window's count goes down by the hits, never below 0, and only if it still exists (an
-- expired window needs no refund). A bucket gets the tokens back, never above its capacity, and
-- only if it still exists (a missing bucket reads as full). Nothing else changes, expiries
-- included.
--
-- Reply: the number of keys that were changed.

local changed = 0
for n, key in ipairs(KEYS) do
  local algorithm = ARGV[3 * n - 2]
  local hits = tonumber(ARGV[3 * n - 1])
  local third = ARGV[3 * n]
  if algorithm == 'tb' then
    local capacity = tonumber(third)
    local stored = redis.call('GET', key)
    if stored then
      local t, at = string.match(stored, '^(%S+) (%S+)$')
      local back = math.min(capacity, tonumber(t) + hits)
      redis.call('SET', key, string.format('%.17g', back) .. ' ' .. at, 'KEEPTTL')
      changed = changed + 1
    end
  elseif algorithm == 'sw' then
    local count = tonumber(redis.call('HGET', key, third))
    if count ~= nil and count > 0 then
      redis.call('HINCRBY', key, third, -math.min(count, hits))
      changed = changed + 1
    end
  else
    local count = tonumber(redis.call('GET', key))
    if count ~= nil and count > 0 then
      redis.call('DECRBY', key, math.min(count, hits))
      changed = changed + 1
    end
  end
end
return changed
