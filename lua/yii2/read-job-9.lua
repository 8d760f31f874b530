--[[
  YII2 READ JOB: where one job of a channel is, and what it is, in one
  snapshot by the Redis server's clock. Reads only. Its place in the stock
  waiting list is found with LPOS from the tail (the end both drivers pop),
  which is O(N): the scan stops after `max scan` elements, and the reply
  then says only that the id is not among them.

  KEYS[1] <ch>.messages      hash
  KEYS[2] <ch>.waiting       list
  KEYS[3] <ch>.prioritized   sorted set (ng)
  KEYS[4] <ch>.delayed       sorted set, scored by the due second
  KEYS[5] <ch>.reserved      sorted set, scored by the expiry second
  KEYS[6] <ch>.attempts      hash
  KEYS[7] <ch>.priorities    hash (ng)
  KEYS[8] <ch>.ranks         hash (ng, `original` positions)
  KEYS[9] <ch>.message_id    string, the id counter

  ARGV[1] id
  ARGV[2] head bytes         bytes of the message returned at most
  ARGV[3] max scan           elements of the waiting list LPOS looks at

  Returns {now, message length (-1 when gone), message head, attempts,
  priority, rank, waiting place from the tail (1 runs next; 0 when not
  among the first `max scan` from the tail), waiting length, prioritized
  rank from 0 (-1 when absent), prioritized score, prioritized total,
  delayed score, reserved score, message_id}, '' where a key holds nothing
  for the id. Or {ErrorCode, key} when a key has the wrong type.
]]
local rcall = redis.call
-- @include layout
-- @include server-time
-- @include yii2-read

local messagesKey, waitingKey, prioritizedKey, delayedKey, reservedKey, attemptsKey, prioritiesKey, ranksKey, messageIdKey =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9]
local id, headBytes, maxScan = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])

local wrongKey = firstWrongTypedKey({
  messagesKey, 'hash', waitingKey, 'list', prioritizedKey, 'zset', delayedKey, 'zset', reservedKey, 'zset',
  attemptsKey, 'hash', prioritiesKey, 'hash', ranksKey, 'hash', messageIdKey, 'string',
})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local length, head = messageHead(messagesKey, id, headBytes)
local waitingLength = rcall('LLEN', waitingKey)
local place = 0
local index = rcall('LPOS', waitingKey, id, 'RANK', -1, 'MAXLEN', maxScan)
if index then place = waitingLength - index end
local rank = rcall('ZRANK', prioritizedKey, id)

return {
  serverNow(),
  length,
  head,
  rcall('HGET', attemptsKey, id) or '',
  rcall('HGET', prioritiesKey, id) or '',
  rcall('HGET', ranksKey, id) or '',
  place,
  waitingLength,
  rank or -1,
  rcall('ZSCORE', prioritizedKey, id) or '',
  rcall('ZCARD', prioritizedKey),
  rcall('ZSCORE', delayedKey, id) or '',
  rcall('ZSCORE', reservedKey, id) or '',
  rcall('GET', messageIdKey) or '',
}
