-- Sliding window: Cloudflare's two-window estimate of a rolling window, then count ARGV[3] hits
-- if they fit. The arithmetic is the same, operation for operation on doubles, as
-- dev.sluice.store.algorithm.SlidingWindowEstimate.take (tested there with a fake clock):
--   estimate = previous * (window - elapsed) / window + current
--   allowed iff estimate + hits <= limit; only allowed hits are counted.
--
-- KEYS[1]  the counter's hash, e.g. sw|60|api|user=alice ({sw|60|api|user=alice} on a cluster):
--          one field per window, named by the window's index (windows since the epoch), holding
--          that window's count of allowed hits. The script touches no other key: on a cluster
--          Redis routes it by that one key, and both windows move with it in one MIGRATE, so a
--          half-migrated slot never shows the script one window without the other.
-- ARGV[1]  limit (requests_per_unit), hits per window
-- ARGV[2]  window length, seconds; windows are aligned to the Unix epoch
-- ARGV[3]  hits to count (0 only reads)
-- ARGV[4]  optional: the time, microseconds since the epoch. Sluice never sends it (it would
--          let instances with skewed clocks disagree); the parity test does, to run the same
--          instants as the fake clock. Absent, the time is Redis's own TIME.
--
-- Writes HINCRBY on the current window's field only when the hits are allowed and not 0. When
-- that field is new, the fields of windows that can no longer be a previous window are deleted
-- and the hash expires two windows after the current window began (relative to the script's
-- time): with no hit for that long both windows are empty anyway.
--
-- Reply, integers only: {allowed, remaining, reset, count}
--   allowed    1 when the hits were counted, 0 when they did not fit (nothing counted)
--   remaining  floor(limit - estimate after this take), at least 0
--   reset      microseconds until the current window ends (allowed), else until the estimate has
--              dropped enough for the hits, at most one window
--   count      limit minus remaining, plus the refused hits when not allowed

local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2]) * 1000000
local hits = tonumber(ARGV[3])

local now
if ARGV[4] then
  now = tonumber(ARGV[4])
else
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end

local index = math.floor(now / window)
local elapsed = now - index * window
if elapsed < 0 then
  -- now / window rounded up to the next window just before its boundary
  index = index - 1
  elapsed = elapsed + window
end
local function field(n)
  return string.format('%.0f', n)
end
local counts = redis.call('HMGET', KEYS[1], field(index), field(index - 1))
local current = tonumber(counts[1] or '0')
local previous = tonumber(counts[2] or '0')

local estimate = previous * (window - elapsed) / window + current
local allowed = estimate + hits <= limit
local after = estimate
if allowed then
  after = estimate + hits
end
local remaining = math.max(0, math.floor(limit - after))

-- Microseconds until the estimate has dropped enough for the hits, at most one window.
local function until_fits()
  local wait
  if hits > limit then
    wait = window
  elseif current + hits <= limit then
    wait = math.ceil(window - (limit - current - hits) * window / previous) - elapsed
  else
    wait = window - elapsed + math.ceil(window - (limit - hits) * window / current)
  end
  return math.max(1, math.min(window, wait))
end

local reset = window - elapsed
local count = limit - remaining
if allowed then
  if hits > 0 then
    local counted = redis.call('HINCRBY', KEYS[1], field(index), hits)
    if counted == hits then
      -- Before this, the hash held at most the windows index - 3 .. index - 1 (an older last
      -- write would have expired it), so only these two can be left over.
      redis.call('HDEL', KEYS[1], field(index - 2), field(index - 3))
      redis.call('PEXPIRE', KEYS[1], math.ceil((2 * window - elapsed) / 1000))
    end
  end
  return {1, remaining, reset, count}
end
return {0, remaining, until_fits(), count + hits}
