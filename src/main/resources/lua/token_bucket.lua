-- Token bucket: refill for the time elapsed, then take ARGV[4] tokens if the bucket holds them.
-- The arithmetic is the same, operation for operation, as
-- dev.sluice.store.algorithm.TokenBucketState.take (tested there with a fake clock).
--
-- KEYS[1]  the bucket, a string '<tokens> <at>': tokens left, fractional, written with %.17g so the
--          double survives exactly; at, when `tokens` was true, microseconds since the epoch. One
--          string (GET, SET PX) costs Redis less than a hash (HMGET, HSET, PEXPIRE): one call
--          fewer, and the expiry comes with the write.
-- ARGV[1]  capacity (burst), tokens
-- ARGV[2]  refill per window (requests_per_unit), tokens
-- ARGV[3]  window length, seconds
-- ARGV[4]  hits to take, tokens (0 only reads the bucket)
-- ARGV[5]  optional: the time, microseconds since the epoch. Sluice never sends it (instances with
--          skewed clocks would disagree); the fuzz test of this script against TokenBucketState
--          does, to run both at the same instant.
--
-- Time is Redis's own TIME, never the caller's clock, so every instance sees one clock.
-- Writes only when it takes tokens (allowed, hits above 0): SET with PX, the time until the bucket
-- would be full again, at least 1 ms; a missing bucket reads as full, so a full bucket need not be
-- kept. A refused take or a read leaves the bucket, and its expiry, as they were: the stored state
-- still describes the bucket exactly (refill is a function of the time since `at`).
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
local window_micros = tonumber(ARGV[3]) * 1000000
local hits = tonumber(ARGV[4])
local rate = tonumber(ARGV[2]) / window_micros -- tokens per microsecond

local now
if ARGV[5] then
  now = tonumber(ARGV[5])
else
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end

local tokens, at = capacity, now
local stored = redis.call('GET', KEYS[1])
if stored then
  local t, a = string.match(stored, '^(%S+) (%S+)$')
  tokens, at = tonumber(t), tonumber(a)
  if tokens == nil or at == nil then
    return redis.error_reply('ERR not a token bucket: ' .. KEYS[1])
  end
end

-- Microseconds until `missing` tokens have dripped in, at most the largest double below 2^63
-- (about 292,000 years: a reply above 2^63 would reach the caller as -2^63); a bucket that never
-- refills says a window. Inline below, not a local function: a closure per call costs Redis CPU.
local max_wait = 9223372036854774784

local elapsed = now - at
if elapsed < 0 then
  elapsed = 0
end
local available = tokens + elapsed * rate
if available > capacity then
  available = capacity
end
local allowed = hits <= available
local left = available
if allowed then
  left = available - hits
end

local until_full = 0
local missing = capacity - left
if missing > 0 then
  if rate <= 0 then
    until_full = window_micros
  else
    until_full = math.min(max_wait, math.ceil(missing / rate))
  end
end
local until_reset = until_full
if hits > capacity or not allowed then
  -- Over capacity no wait lets it through: a whole bucket's refill time, never 0 (issue 11.10).
  missing = capacity
  if hits <= capacity then
    missing = hits - left
  end
  if missing <= 0 then
    until_reset = 0
  elseif rate <= 0 then
    until_reset = window_micros
  else
    until_reset = math.min(max_wait, math.ceil(missing / rate))
  end
end
local whole = math.floor(left)
local count = capacity - whole

if allowed and hits > 0 then
  local ttl_millis = math.floor((until_full + 999) / 1000)
  if ttl_millis < 1 then
    ttl_millis = 1
  end
  redis.call('SET', KEYS[1], string.format('%.17g %.0f', left, now), 'PX', ttl_millis)
end
if allowed then
  return {1, whole, until_reset, count}
end
return {0, whole, until_reset, count + hits}
