--[[
  YII2 READ COUNTS: one channel's figures in one snapshot, read only. The
  drivers' own StatisticsProvider reads them with separate commands; here they
  come from one moment, with the due and expired parts counted against the
  Redis server's clock (the comparison both drivers' movers make: a score at
  or before now is due, or expired).

  KEYS[1] <ch>.waiting       list (stock line; under ng, jobs waiting for takeover)
  KEYS[2] <ch>.prioritized   sorted set (ng's line)
  KEYS[3] <ch>.delayed       sorted set, scored by the due second
  KEYS[4] <ch>.reserved      sorted set, scored by the expiry second
  KEYS[5] <ch>.message_id    string, the id counter
  KEYS[6] <ch>.messages      hash, every job still indexed or orphaned

  Returns {waiting, prioritized, delayed, delayed due, reserved, reserved
  expired, message_id or '', messages, now}, or {ErrorCode, key} when a key
  has the wrong type.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local waitingKey, prioritizedKey, delayedKey, reservedKey, messageIdKey, messagesKey =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]

local wrongKey = firstWrongTypedKey({
  waitingKey, 'list', prioritizedKey, 'zset', delayedKey, 'zset',
  reservedKey, 'zset', messageIdKey, 'string', messagesKey, 'hash',
})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = serverNow()
return {
  rcall('LLEN', waitingKey),
  rcall('ZCARD', prioritizedKey),
  rcall('ZCARD', delayedKey),
  rcall('ZCOUNT', delayedKey, '-inf', now),
  rcall('ZCARD', reservedKey),
  rcall('ZCOUNT', reservedKey, '-inf', now),
  rcall('GET', messageIdKey) or '',
  rcall('HLEN', messagesKey),
  now,
}
