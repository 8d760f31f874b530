--[[
  READ LIST QUEUE COUNTS: the figures of one queue kept as a ready list,
  delayed and reserved sorted sets and a notify list (marko/queue-redis,
  whose elements are job ids, and Laravel's RedisQueue, whose elements are
  the payloads themselves), in one snapshot, read only. Due delayed jobs and expired reservations are counted against
  the Redis server's clock, a score at or before now being due (expired):
  the driver compares by its PHP host's clock, which only agrees when the
  hosts are in sync, and whether an expiry at exactly now counts as expired
  is not documented.

  KEYS[1] {prefix}queues:{name}            list, ready jobs
  KEYS[2] {prefix}queues:{name}:delayed    sorted set, scored by the second it becomes available
  KEYS[3] {prefix}queues:{name}:reserved   sorted set, scored by the second the reservation expires
  KEYS[4] {prefix}queues:{name}:notify     list, one token per ready job

  Returns {ready, delayed, delayed due, reserved, reserved expired, notify
  tokens, now}, or {ErrorCode, key} when a key has the wrong type.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local readyKey, delayedKey, reservedKey, notifyKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

local wrongKey = firstWrongTypedKey({
  readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset', notifyKey, 'list',
})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = serverNow()
return {
  rcall('LLEN', readyKey),
  rcall('ZCARD', delayedKey),
  rcall('ZCOUNT', delayedKey, '-inf', now),
  rcall('ZCARD', reservedKey),
  rcall('ZCOUNT', reservedKey, '-inf', now),
  rcall('LLEN', notifyKey),
  now,
}
