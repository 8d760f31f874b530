--[[
  LARAVEL FIND JOB: where one job of one queue is, and its payload's exact
  bytes, from one consistent read. Laravel's jobs have no key of their own:
  each element of the ready list and the delayed and reserved sets is the
  whole payload, so the job is found by its id inside the payload. The
  reserved and delayed sets are looked at first (a job is in one place at a
  time; the pop script re-encodes the copy it reserves), then the ready
  list from its head. Bounded: at most `searchLimit` elements of each, so a
  job further down a long structure is reported unsearched. Reads only.

  The needles are `"id":"{id}"` and `"uuid":"{id}"`, built by the caller from
  an id of letters, digits and dashes; inside `data.command` every quote is
  escaped, so only a key of the payload's JSON matches.

  KEYS[1] {prefix}queues:{queue}            list, ready payloads
  KEYS[2] {prefix}queues:{queue}:delayed    sorted set, payloads scored by the second they may run
  KEYS[3] {prefix}queues:{queue}:reserved   sorted set, payloads scored by the second the reservation expires

  ARGV[1] `"id":"{id}"`
  ARGV[2] `"uuid":"{id}"`
  ARGV[3] searchLimit   elements of each structure looked at, at most

  Returns {place, at, payload, now}: place 'ready' (at: its index from the
  head), 'delayed' or 'reserved' (at: its score); or {'none', complete, now}
  (complete 1 when every element was looked at), or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local readyKey, delayedKey, reservedKey = KEYS[1], KEYS[2], KEYS[3]
local idNeedle, uuidNeedle, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])

local wrongKey = firstWrongTypedKey({readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local function holds(payload)
  return string.find(payload, idNeedle, 1, true) or string.find(payload, uuidNeedle, 1, true)
end

-- Read a chunk at a time, so that a job near the front costs only the
-- payloads before it: each element read becomes a Lua string, and reading
-- all `limit` of a structure of 1 KB payloads at once took 5 ms.
local CHUNK = 100
local now = serverNow()
for _, place in ipairs({{'reserved', reservedKey}, {'delayed', delayedKey}}) do
  for first = 0, limit - 1, CHUNK do
    local scored = rcall('ZRANGE', place[2], first, math.min(first + CHUNK, limit) - 1, 'WITHSCORES')
    for i = 1, #scored, 2 do
      if holds(scored[i]) then return {place[1], scored[i + 1], scored[i], now} end
    end
    if #scored < 2 * CHUNK then break end
  end
end
for first = 0, limit - 1, CHUNK do
  local ready = rcall('LRANGE', readyKey, first, math.min(first + CHUNK, limit) - 1)
  for i, payload in ipairs(ready) do
    if holds(payload) then return {'ready', first + i - 1, payload, now} end
  end
  if #ready < CHUNK then break end
end
local complete = rcall('ZCARD', reservedKey) <= limit and rcall('ZCARD', delayedKey) <= limit and rcall('LLEN', readyKey) <= limit
return {'none', complete and 1 or 0, now}
