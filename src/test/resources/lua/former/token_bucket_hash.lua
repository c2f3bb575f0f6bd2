-- Token bucket: refill for the time elapsed, then take ARGV[4] tokens if the bucket holds them.
-- The arithmetic is the same, operation for operation, as
-- dev.sluice.store.TokenBucketState.take (tested there with a fake clock).
--
-- KEYS[1]  the bucket, a hash: tokens = tokens left, fractional, written with %.17g so the double
--          survives exactly; at = when `tokens` was true, microseconds since the epoch
-- ARGV[1]  capacity (burst), tokens
-- ARGV[2]  refill per window (requests_per_unit), tokens
-- ARGV[3]  window length, seconds
-- ARGV[4]  hits to take, tokens (0 only reads the bucket)
-- ARGV[5]  optional: the time, microseconds since the epoch. Sluice never sends it (instances with
--          skewed clocks would disagree); the fuzz test of this script against TokenBucketState
--          does, to run both at the same instant.
--
-- Time is Redis's own TIME, never the caller's clock, so every instance sees one clock.
-- Writes the hash (HSET) and expires it (PEXPIRE) when the bucket would be full again, at least
-- 1 ms: a missing bucket reads as full, so a full bucket need not be kept.
--
-- Reply, integers only: {allowed, tokens, reset, count}
--   allowed  1 when the hits were taken, 0 when the bucket held too few (nothing taken)
--   tokens   whole tokens left
--   reset    microseconds until the bucket is full again (allowed), until it holds enough
--            tokens for the hits (refused), or, for hits above capacity, which no wait can
--            satisfy, the time a whole bucket takes to refill (capacity / rate; a window when the
--            rate is 0), never 0
--   count    capacity minus whole tokens left, plus the refused hits when not allowed

local capacity = tonumber(ARGV[1])
local per_window = tonumber(ARGV[2])
local window_micros = tonumber(ARGV[3]) * 1000000
local hits = tonumber(ARGV[4])
local rate = per_window / window_micros -- tokens per microsecond

local now
if ARGV[5] then
  now = tonumber(ARGV[5])
else
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end

local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end

-- Microseconds until `missing` tokens have dripped in, at most the largest double below 2^63
-- (about 292,000 years: a reply above 2^63 would reach the caller as -2^63); a bucket that never
-- refills says a window.
local max_wait = 9223372036854774784
local function micros_until(missing)
  if missing <= 0 then
    return 0
  end
  if rate <= 0 then
    return window_micros
  end
  return math.min(max_wait, math.ceil(missing / rate))
end

local elapsed = math.max(0, now - at)
local available = math.min(capacity, tokens + elapsed * rate)
local allowed = hits <= available
local left = available
if allowed then
  left = available - hits
end

local until_full = micros_until(capacity - left)
local until_reset = until_full
if hits > capacity then
  -- No wait lets it through: a whole bucket's refill time, never 0 (issue 11.10).
  until_reset = micros_until(capacity)
elseif not allowed then
  until_reset = micros_until(hits - left)
end
local whole = math.floor(left)
local count = capacity - whole
if not allowed then
  count = count + hits
end
local ttl_millis = math.max(1, math.floor((until_full + 999) / 1000))

redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', left), 'at', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], ttl_millis)
if allowed then
  return {1, whole, until_reset, count}
end
return {0, whole, until_reset, count}
