-- Token bucket, batch form: for each key in turn, refill for the time elapsed, then take its hits if
-- the bucket holds them. One call carries the token-bucket hits of many requests (a lane's batch
-- on one Redis node), so Redis pays one script call and one TIME for all of them. The arithmetic is
-- the same, operation for operation, as dev.sluice.store.algorithm.TokenBucketState.take (tested
-- there with a fake clock), and the hits are applied in order exactly as one call per hit would.
--
-- KEYS[i]      bucket i, a string '<tokens> <at>': tokens left, fractional, written with %.17g so
--              the double survives exactly (a whole number as an integer, the same text); at, when
--              `tokens` was true, whole microseconds since the epoch. A key may appear more than once: each take sees what the earlier ones left.
-- ARGV[1]      the time, microseconds since the epoch, or the empty string for Redis's own TIME
--              (read once per call). Sluice always sends it empty (instances with skewed clocks
--              would disagree); the fuzz test against TokenBucketState sends an instant.
-- ARGV[4i-2]   capacity (burst) of bucket i, tokens
-- ARGV[4i-1]   refill per window (requests_per_unit), tokens
-- ARGV[4i]     window length, seconds
-- ARGV[4i+1]   hits to take, tokens (0 only reads the bucket)
--
-- Writes only buckets that took tokens (allowed, hits above 0), each once at the end: SET with PX,
-- the time until the bucket would be full again after its last such take, at least 1 ms. That is
-- the state and expiry one call per hit would leave. A missing bucket reads as full, so a full
-- bucket need not be kept. A refused take or a read leaves the bucket, and its expiry, as they
-- were: the stored state still describes the bucket exactly (refill is a function of the time
-- since `at`).
--
-- Reply, integers only, 4 per key in KEYS order: {allowed, tokens, reset, count, ...}
--   allowed  1 when the hits were taken, 0 when the bucket held too few (nothing taken), -1 when
--            the key holds something that is not a bucket: only that hit fails (its other three
--            are 0), never the other callers' hits in the same call
--   tokens   whole tokens left
--   reset    microseconds until the bucket is full again (allowed), until it holds enough
--            tokens for the hits (refused), or, for hits above capacity, which no wait can
--            satisfy, the time a whole bucket takes to refill (capacity / rate; a window when the
--            rate is 0), never 0
--   count    capacity minus whole tokens left, plus the refused hits when not allowed

local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- Microseconds until `missing` tokens have dripped in, at most the largest double below 2^63
-- (about 292,000 years: a reply above 2^63 would reach the caller as -2^63); a bucket that never
-- refills says a window. Inline below, not a local function: a closure per call costs Redis CPU.
local max_wait = 9223372036854774784

-- Per key as this call left it: false when the key holds no bucket; else {tokens, at, ttl}, all
-- nil while the key is missing (each take then reads a full bucket of its own capacity), ttl set
-- once a take wrote it.
local buckets = {}
local order = {} -- keys taken from, in first-take order: each is SET once at the end
local reply = {}

for i = 1, #KEYS do
  local key = KEYS[i]
  local a = 4 * i - 2
  local capacity = tonumber(ARGV[a])
  local window_micros = tonumber(ARGV[a + 2]) * 1000000
  local hits = tonumber(ARGV[a + 3])
  local rate = tonumber(ARGV[a + 1]) / window_micros -- tokens per microsecond

  local bucket = buckets[key]
  if bucket == nil then
    local stored = redis.pcall('GET', key)
    if stored == false then
      bucket = {}
    elseif type(stored) == 'string' then
      local t, s = string.match(stored, '^(%S+) (%S+)$')
      t, s = tonumber(t), tonumber(s)
      bucket = {t, s}
      if t == nil or s == nil then
        bucket = false
      end
    else
      bucket = false -- an error reply (WRONGTYPE): a hash or a list under the key
    end
    buckets[key] = bucket
  end

  local r = 4 * i - 3
  if bucket == false then
    reply[r], reply[r + 1], reply[r + 2], reply[r + 3] = -1, 0, 0, 0
  else
    local tokens, at = capacity, now
    if bucket[1] ~= nil then
      tokens, at = bucket[1], bucket[2]
    end
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
      if bucket[3] == nil then
        order[#order + 1] = key
      end
      bucket[1], bucket[2], bucket[3] = left, now, ttl_millis
    end
    if allowed then
      reply[r], reply[r + 1], reply[r + 2], reply[r + 3] = 1, whole, until_reset, count
    else
      reply[r], reply[r + 1], reply[r + 2], reply[r + 3] = 0, whole, until_reset, count + hits
    end
  end
end

-- The same text %.17g would write, cheaper: a whole number of tokens (a bucket taken from while
-- full, the common case on many keys) and `at` (always whole microseconds) as integers, which C's
-- %.17g and %.0f spend about 0.3 us each converting through their exact decimal expansion.
for i = 1, #order do
  local bucket = buckets[order[i]]
  local tokens = bucket[1]
  local state
  if tokens == math.floor(tokens) and tokens < 1e15 and tokens > -1e15 then
    state = string.format('%d %d', tokens, bucket[2])
  else
    state = string.format('%.17g %d', tokens, bucket[2])
  end
  redis.call('SET', order[i], state, 'PX', bucket[3])
end
return reply
