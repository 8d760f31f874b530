--[[
  YII2 READ RESERVATIONS: one page of a channel's reservations, soonest
  expiry first, with each job's attempts, stored priority and the start of
  its message, and how many have expired, in one snapshot by the Redis
  server's clock. Reads only. A score at or before now is expired: both
  drivers' movers take `-inf..now`.

  KEYS[1] <ch>.reserved      sorted set, scored by the expiry second
  KEYS[2] <ch>.attempts      hash
  KEYS[3] <ch>.priorities    hash (ng; absent for stock)
  KEYS[4] <ch>.messages      hash

  ARGV[1] offset             rows skipped
  ARGV[2] limit              rows read, at most 100
  ARGV[3] head bytes         bytes of each message returned at most
  ARGV[4] copy limit         messages longer than this are not read

  Returns {now, total, expired, {rows}} with each row {id, expiry, attempts,
  priority, message length (-1 when the message is gone), message head, head
  read (1 or 0)}, or
  {ErrorCode, key} when a key has the wrong type.
]]
local rcall = redis.call
-- @include layout
-- @include server-time
-- @include yii2-read

local reservedKey, attemptsKey, prioritiesKey, messagesKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local offset, limit = tonumber(ARGV[1]), math.min(tonumber(ARGV[2]), 100)
local reader = {attempts = attemptsKey, priorities = prioritiesKey, messages = messagesKey, headBytes = tonumber(ARGV[3]), copyLimit = tonumber(ARGV[4])}

local wrongKey = firstWrongTypedKey({reservedKey, 'zset', attemptsKey, 'hash', prioritiesKey, 'hash', messagesKey, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = serverNow()
local rows = scoredRows(reader, reservedKey, offset, limit)
return {now, rcall('ZCARD', reservedKey), rcall('ZCOUNT', reservedKey, '-inf', now), rows}
