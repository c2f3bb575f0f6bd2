-- Sliding window, batch form: for each key in turn, Cloudflare's two-window estimate of a rolling
-- window, then count the key's hits if they fit. One call carries the sliding-window hits of many
-- requests (a lane's batch on one Redis node), so Redis pays one script call and one TIME for all
-- of them; each key's steps run against Redis as they are, so the takes apply in order exactly as
-- one call per hit would. The arithmetic is the same, operation for operation on doubles, as
-- dev.sluice.store.algorithm.SlidingWindowEstimate.take (tested there with a fake clock):
--   estimate = previous * (window - elapsed) / window + current
--   allowed iff estimate + hits <= limit; only allowed hits are counted.
--
-- KEYS[i]     counter i's hash, e.g. sw|60|api|user=alice ({sw|60|api|user=alice} on a cluster):
--             one field per window, named by the window's index (windows since the epoch), holding
--             that window's count of allowed hits. The script touches no other key: on a cluster
--             Redis routes it by that one key (a cluster sends one key per call), and both windows
--             move with it in one MIGRATE, so a half-migrated slot never shows the script one
--             window without the other.
-- ARGV[1]     the time, microseconds since the epoch, or the empty string for Redis's own TIME
--             (read once per call). Sluice always sends it empty (it would let instances with
--             skewed clocks disagree); the parity test sends the fake clock's instants.
-- ARGV[3i-1]  limit (requests_per_unit) of counter i, hits per window
-- ARGV[3i]    window length, seconds; windows are aligned to the Unix epoch
-- ARGV[3i+1]  hits to count (0 only reads)
--
-- Writes HINCRBY on the current window's field only when the hits are allowed and not 0. When
-- that field is new, the fields of windows that can no longer be a previous window are deleted
-- and the hash expires two windows after the current window began (relative to the script's
-- time): with no hit for that long both windows are empty anyway.
--
-- Reply, integers only, 4 per key in KEYS order: {allowed, remaining, reset, count, ...}
--   allowed    1 when the hits were counted, 0 when they did not fit (nothing counted), -1 when
--              the key holds something that is not such a hash (another type, or a window
--              field that is no number): only that hit fails (its other three
--              are 0), never the other callers' hits in the same call
--   remaining  floor(limit - estimate after this take), at least 0
--   reset      microseconds until the current window ends (allowed), else until the estimate has
--              dropped enough for the hits, at most one window
--   count      limit minus remaining, plus the refused hits when not allowed

local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end

local function field(n)
  return string.format('%.0f', n)
end

-- Microseconds until the estimate has dropped enough for the hits, at most one window.
local function until_fits(limit, window, elapsed, previous, current, hits)
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

local reply = {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local a = 3 * i - 1
  local limit = tonumber(ARGV[a])
  local window = tonumber(ARGV[a + 1]) * 1000000
  local hits = tonumber(ARGV[a + 2])
  local r = 4 * i - 3

  local index = math.floor(now / window)
  local elapsed = now - index * window
  if elapsed < 0 then
    -- now / window rounded up to the next window just before its boundary
    index = index - 1
    elapsed = elapsed + window
  end
  -- pcall, and numbers checked: a key that is not such a hash must fail only its own take.
  local counts = redis.pcall('HMGET', key, field(index), field(index - 1))
  local current, previous
  if not counts.err then
    current = tonumber(counts[1] or '0')
    previous = tonumber(counts[2] or '0')
  end
  if current == nil or previous == nil then
    reply[r], reply[r + 1], reply[r + 2], reply[r + 3] = -1, 0, 0, 0
  else
    local estimate = previous * (window - elapsed) / window + current
    local allowed = estimate + hits <= limit
    local after = estimate
    if allowed then
      after = estimate + hits
    end
    local remaining = math.max(0, math.floor(limit - after))
    local count = limit - remaining
    local counted = hits
    if allowed and hits > 0 then
      counted = redis.pcall('HINCRBY', key, field(index), hits) -- fails on a field like '1.5'
      if counted == hits then
        -- Before this, the hash held at most the windows index - 3 .. index - 1 (an older last
        -- write would have expired it), so only these two can be left over.
        redis.call('HDEL', key, field(index - 2), field(index - 3))
        redis.call('PEXPIRE', key, math.ceil((2 * window - elapsed) / 1000))
      end
    end
    if type(counted) == 'table' then
      reply[r], reply[r + 1], reply[r + 2], reply[r + 3] = -1, 0, 0, 0
    elseif allowed then
      reply[r], reply[r + 1], reply[r + 2], reply[r + 3] = 1, remaining, window - elapsed, count
    else
      reply[r], reply[r + 1], reply[r + 2], reply[r + 3] =
        0, remaining, until_fits(limit, window, elapsed, previous, current, hits), count + hits
    end
  end
end
return reply
