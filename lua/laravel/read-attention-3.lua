--[[
  LARAVEL READ ATTENTION: what the overview's marks judge one Laravel queue
  on, read only, in one snapshot, by the Redis server's clock. Every pop of
  Laravel's RedisQueue first moves the due delayed payloads and the expired
  reservations back onto the ready list (RedisQueue::migrate), so the oldest
  score of each set that is still past is the moment since which nobody
  popped the queue. Bounded: LLEN, two ZCOUNTs and two one-member ZRANGEs,
  whatever the sets hold.

  KEYS[1] {prefix}queues:{name}            list, ready payloads
  KEYS[2] {prefix}queues:{name}:delayed    sorted set, scored by the second it is due
  KEYS[3] {prefix}queues:{name}:reserved   sorted set, scored by the second the reservation expires

  ARGV[1] stuck seconds                    reservations expired at least this long are counted

  Returns {now, ready, due delayed, oldest delayed score or '', oldest
  reserved score or '', reservations expired at least ARGV[1] seconds},
  or {ErrorCode.WrongKeyType, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local readyKey, delayedKey, reservedKey = KEYS[1], KEYS[2], KEYS[3]
local stuckSeconds = tonumber(ARGV[1])

local wrongKey = firstWrongTypedKey({readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

-- The lowest score of a sorted set as the string Redis keeps, '' when it is empty.
local function lowestScore(key)
  local lowest = rcall('ZRANGE', key, 0, 0, 'WITHSCORES')
  return lowest[2] or ''
end

local now = serverNow()
return {
  now,
  rcall('LLEN', readyKey),
  rcall('ZCOUNT', delayedKey, '-inf', now),
  lowestScore(delayedKey),
  lowestScore(reservedKey),
  rcall('ZCOUNT', reservedKey, '-inf', now - stuckSeconds),
}
