--[[
  YII2 REQUEUE ORPHAN: a message that no index holds (a stock push or reserve
  that died between its commands, an ng reserve that failed on a message
  without its TTR prefix, or a hand edit) is put back as a delayed job due
  this second, so the driver's own mover places it by its own rules under
  either driver (spec §4.6).

  Re-checks that the message still exists and that the id is in none of the
  four indexes. LPOS walks the stock list (O(N)): ids have no index into it.

  KEYS[1] <ch>.messages      hash
  KEYS[2] <ch>.waiting       list (the stock line)
  KEYS[3] <ch>.prioritized   sorted set (ng's line)
  KEYS[4] <ch>.delayed       sorted set
  KEYS[5] <ch>.reserved      sorted set

  ARGV[1] job id

  Returns {1} when requeued, {0} when it is no orphan (any more), or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local messagesKey, waitingKey, prioritizedKey, delayedKey, reservedKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local id = ARGV[1]

local wrongKey = firstWrongTypedKey({
  messagesKey, 'hash', waitingKey, 'list', prioritizedKey, 'zset', delayedKey, 'zset', reservedKey, 'zset',
})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if rcall('HEXISTS', messagesKey, id) == 0 then return {0} end
if rcall('ZSCORE', prioritizedKey, id) or rcall('ZSCORE', delayedKey, id) or rcall('ZSCORE', reservedKey, id)
  or rcall('LPOS', waitingKey, id) then
  return {0}
end
rcall('ZADD', delayedKey, serverNow(), id)
return {1}
