-- Charge: several counters of one request decided in one atomic step, for rate_limits lists
-- (several limits on one descriptor) and charge_denied: false. The rule is the same as
-- dev.sluice.store.Charge.decide, and each algorithm's arithmetic the same, operation for
-- operation, as its Java twin (fixed_window: FixedWindow; token_bucket: TokenBucketState.take;
-- sliding_window: SlidingWindowEstimate.take), so the memory store answers alike.
--
-- KEYS     one per hit, in order: every key the hit touches, and the script touches no other.
--          A fixed window: its window's key (the base key, '|', the window index of ARGV[1]); a
--          sliding window: its hash, one field per window index (as lua/sliding_window.lua); a
--          token bucket: its hash. On a cluster every key one group uses shares one hash tag (the
--          group's), so the script's keys are in one slot, and Redis routes the script by them.
-- ARGV[1]  the service clock, milliseconds since the epoch: the instant of the fixed window the
--          caller put in the key, for its reset (token bucket and sliding window read Redis TIME)
-- ARGV[2]  number of groups
-- then per group: policy (0 each, 1 together, 2 with_request), vote (0 none, 1 regular,
--          2 quota), answered (1: refused already, no hits), number of hits
-- then per hit, in KEYS order: algorithm (fw, tb, sw), requests_per_unit, burst (token bucket
--          capacity; else requests_per_unit), window length in seconds (a calendar window's: the
--          one holding ARGV[1]), hits, and the start of the fixed window, milliseconds since the
--          epoch (0 for the others): the caller computes the window, which may be a calendar one
--
-- Two passes. The first decides: each hit is evaluated on what earlier hits of this request
-- would leave if they were charged (so a counter named twice is never over-admitted), then the
-- rule of Charge.decide says which hits are charged. The second charges those, in order, on the
-- stored values, and reads the others without writing.
--
-- Writes: fixed window INCRBY + EXPIRE NX (window); sliding window HINCRBY on the current
-- window's field, and for a new field HDEL of the windows that can no longer be previous + PEXPIRE
-- (two windows); token bucket SET PX (until full) when it took tokens; only for charged hits.
--
-- Reply, integers only, six per hit: {fits, charged, remaining, reset, count, index}
--   fits      1 when the hit fits its limit
--   charged   1 when it was charged
--   remaining hits left after this take (whole tokens for a bucket)
--   reset     microseconds: window end (fixed window; sliding window when it fits), until full
--             (bucket that fits), else until the hits would fit
--   count     the counter on the limit's scale after this hit, the refused hits included
--   index     the window charged (sliding window), 0 for a fixed window (its key names its
--             window) and a bucket: what a refund needs

local now_millis = tonumber(ARGV[1])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])

local function fmt(n)
  return string.format('%.0f', n)
end

-- Per algorithm: the keys a hit uses, how to read its state, evaluate a take, and write it.
local algo = {}

algo.fw = {
  keys = function(h)
    local window_ms = h.window * 1000
    h.index = 0
    h.key = h.base
    h.reset = (window_ms - (now_millis - h.start)) * 1000
  end,
  read = function(h)
    return {count = tonumber(redis.call('GET', h.key) or '0')}
  end,
  take = function(h, s, hits)
    local after = s.count + hits
    return {
      fits = after <= h.limit,
      next = {count = after},
      remaining = math.max(0, h.limit - after),
      reset = h.reset,
      count = after
    }
  end,
  write = function(h, hits)
    if hits > 0 then
      redis.call('INCRBY', h.key, hits)
      redis.call('EXPIRE', h.key, h.window, 'NX')
    end
  end
}

algo.sw = {
  keys = function(h)
    local window = h.window * 1000000
    local index = math.floor(now / window)
    local elapsed = now - index * window
    if elapsed < 0 then
      index = index - 1
      elapsed = elapsed + window
    end
    h.window_micros = window
    h.index = index
    h.elapsed = elapsed
    h.key = h.base
  end,
  read = function(h)
    local counts = redis.call('HMGET', h.key, fmt(h.index), fmt(h.index - 1))
    return {current = tonumber(counts[1] or '0'), previous = tonumber(counts[2] or '0')}
  end,
  take = function(h, s, hits)
    local window = h.window_micros
    local elapsed = h.elapsed
    local limit = h.limit
    local estimate = s.previous * (window - elapsed) / window + s.current
    local fits = estimate + hits <= limit
    local after = estimate
    if fits then
      after = estimate + hits
    end
    local remaining = math.max(0, math.floor(limit - after))
    local reset = window - elapsed
    if not fits then
      local wait
      if hits > limit then
        wait = window
      elseif s.current + hits <= limit then
        wait = math.ceil(window - (limit - s.current - hits) * window / s.previous) - elapsed
      else
        wait = window - elapsed + math.ceil(window - (limit - hits) * window / s.current)
      end
      reset = math.max(1, math.min(window, wait))
    end
    local count = limit - remaining
    if not fits then
      count = count + hits
    end
    return {
      fits = fits,
      next = {previous = s.previous, current = s.current + hits},
      remaining = remaining,
      reset = reset,
      count = count
    }
  end,
  write = function(h, hits)
    if hits > 0 then
      local counted = redis.call('HINCRBY', h.key, fmt(h.index), hits)
      if counted == hits then
        redis.call('HDEL', h.key, fmt(h.index - 2), fmt(h.index - 3))
        redis.call('PEXPIRE', h.key, math.ceil((2 * h.window_micros - h.elapsed) / 1000))
      end
    end
  end
}

algo.tb = {
  keys = function(h)
    h.index = 0
    h.key = h.base
  end,
  read = function(h)
    local stored = redis.call('GET', h.key)
    if not stored then
      return {tokens = h.burst, at = now}
    end
    local t, a = string.match(stored, '^(%S+) (%S+)$')
    local tokens, at = tonumber(t), tonumber(a)
    if tokens == nil or at == nil then
      error('not a token bucket: ' .. h.key)
    end
    return {tokens = tokens, at = at}
  end,
  take = function(h, s, hits)
    local capacity = h.burst
    local window_micros = h.window * 1000000
    local rate = h.limit / window_micros
    local function micros_until(missing)
      if missing <= 0 then
        return 0
      end
      if rate <= 0 then
        return window_micros
      end
      return math.ceil(missing / rate)
    end
    local elapsed = math.max(0, now - s.at)
    local available = math.min(capacity, s.tokens + elapsed * rate)
    local fits = hits <= available
    local left = available
    if fits then
      left = available - hits
    end
    local until_full = micros_until(capacity - left)
    local reset = until_full
    if not fits and hits <= capacity then
      reset = micros_until(hits - left)
    end
    local whole = math.floor(left)
    local count = capacity - whole
    if not fits then
      count = count + hits
    end
    h.ttl = math.max(1, math.floor((until_full + 999) / 1000))
    -- Only a take of tokens moves the state (TokenBucketState.take): a read or a refusal leaves it.
    local next = s
    if fits and hits > 0 then
      next = {tokens = left, at = now, taken = true}
    end
    return {
      fits = fits,
      next = next,
      remaining = whole,
      reset = reset,
      count = count
    }
  end,
  write = function(h, hits, s)
    if s.taken then
      -- Whole tokens and `at` as integers: the text %.17g would give, at less of Redis's CPU
      -- (as token_bucket.lua writes it).
      local tokens = s.tokens
      local format = '%.17g %d'
      if tokens == math.floor(tokens) and tokens < 1e15 and tokens > -1e15 then
        format = '%d %d'
      end
      redis.call('SET', h.key, string.format(format, tokens, s.at), 'PX', h.ttl)
    end
  end
}

-- Read the arguments.
local groups = {}
local hits = {}
local at = 3
for g = 1, tonumber(ARGV[2]) do
  local group = {
    policy = tonumber(ARGV[at]),
    vote = tonumber(ARGV[at + 1]),
    answered = ARGV[at + 2] == '1',
    size = tonumber(ARGV[at + 3]),
    first = #hits + 1
  }
  at = at + 4
  groups[g] = group
  for i = 1, group.size do
    hits[#hits + 1] = {group = group}
  end
end
for n, h in ipairs(hits) do
  h.algorithm = ARGV[at]
  h.limit = tonumber(ARGV[at + 1])
  h.burst = tonumber(ARGV[at + 2])
  h.window = tonumber(ARGV[at + 3])
  h.hits = tonumber(ARGV[at + 4])
  h.start = tonumber(ARGV[at + 5])
  h.base = KEYS[n]
  at = at + 6
  algo[h.algorithm].keys(h)
end

local function state_of(overlay, h)
  local kept = overlay[h.key]
  if kept ~= nil then
    return kept
  end
  return algo[h.algorithm].read(h)
end

-- Pass 1: evaluate each group on what the earlier groups would leave.
local tentative = {}
local request_refused = false
local quota, quota_refused = 0, 0
for _, group in ipairs(groups) do
  local fits = not group.answered
  for n = group.first, group.first + group.size - 1 do
    local h = hits[n]
    h.first_take = algo[h.algorithm].take(h, state_of(tentative, h), h.hits)
    fits = fits and h.first_take.fits
  end
  group.fits = fits
  for n = group.first, group.first + group.size - 1 do
    local h = hits[n]
    -- What this hit leaves if charged: a group charges all or nothing, except a lone hit
    -- charged by its algorithm (a fixed window counts refused hits too).
    local would = group.fits or (group.policy == 0 and h.algorithm == 'fw')
    if would then
      tentative[h.key] = h.first_take.next
    end
  end
  if group.vote == 1 and not fits then
    request_refused = true
  elseif group.vote == 2 then
    quota = quota + 1
    if not fits then
      quota_refused = quota_refused + 1
    end
  end
end
if quota > 0 and quota_refused == quota then
  request_refused = true
end

-- Pass 2: in order on the stored values, charge the charged hits and read the others.
local stored = {}
for _, h in ipairs(hits) do
  local group = h.group
  if group.policy == 0 then
    h.charged = h.first_take.fits or h.algorithm == 'fw'
  elseif group.policy == 1 then
    h.charged = group.fits
  else
    h.charged = group.fits and not request_refused
  end
  if h.charged then
    local state = state_of(stored, h)
    local take = algo[h.algorithm].take(h, state, h.hits)
    algo[h.algorithm].write(h, h.hits, take.next)
    stored[h.key] = take.next
    h.reply = {take.fits and 1 or 0, 1, take.remaining, take.reset, take.count, h.index}
  else
    -- What the hits before it left, in request order, as the per-hit scripts answer.
    local look = algo[h.algorithm].take(h, state_of(stored, h), 0)
    local first = h.first_take
    local reset = first.reset
    if first.fits then
      reset = look.reset
    end
    h.reply = {first.fits and 1 or 0, 0, look.remaining, reset, first.count, h.index}
  end
end
local reply = {}
for _, h in ipairs(hits) do
  for _, value in ipairs(h.reply) do
    reply[#reply + 1] = value
  end
end
return reply
