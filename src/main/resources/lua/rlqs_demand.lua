-- RLQS demand sharing: one instance publishes the demands of its own clients of one counter and
-- reads those of every other instance, on Redis's own clock (so skewed instance clocks agree on
-- what has expired).
--
-- KEYS[1]  the hash of one counter's demands, e.g. sluice_rlqs|api.path_/x|path=/x; field:
--          <instance>/<client>, value: <demand in milli-requests per second>:<expiry, Redis TIME ms>
-- ARGV[1]  how long the fields written now live, milliseconds (the assignment TTL)
-- ARGV[2]  this instance's id; its fields are the ones named <id>/...
-- ARGV[3], ARGV[4], ...  pairs: a client of this instance, its demand in milli-requests per second
--          (-1 = not known yet)
--
-- Writes this instance's fields, deletes its fields not named in this call (clients that left)
-- and every expired field, and expires the whole hash ARGV[1] milliseconds after this call.
--
-- Reply, an array of integers: the demand of every live field of the other instances, milli-requests
-- per second (-1 = not known yet), in no particular order.

local ttl = tonumber(ARGV[1])
local own = ARGV[2] .. '/'
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local written = {}
for i = 3, #ARGV, 2 do
  local field = own .. ARGV[i]
  written[field] = true
  redis.call('HSET', KEYS[1], field, ARGV[i + 1] .. ':' .. (now + ttl))
end

local others = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local field = all[i]
  local value = all[i + 1]
  local sep = string.find(value, ':', 1, true)
  local expires = tonumber(string.sub(value, sep + 1))
  if string.sub(field, 1, #own) == own then
    if not written[field] then
      redis.call('HDEL', KEYS[1], field)
    end
  elseif expires <= now then
    redis.call('HDEL', KEYS[1], field)
  else
    others[#others + 1] = tonumber(string.sub(value, 1, sep - 1))
  end
end
redis.call('PEXPIRE', KEYS[1], ttl)
return others
