--[[
  YII2 READ DELAYED: a channel's delayed set over time, in one snapshot by
  the Redis server's clock: how many are overdue (due, but not moved into
  the line yet: only a reserve, or under ng a push, moves them), how many
  come due in each bucket, and the next `limit` jobs due with their
  attempts, stored priority and the start of their message. Reads only;
  the set is never read whole (one ZCOUNT per bucket).

  KEYS[1] <ch>.delayed       sorted set, scored by the due second
  KEYS[2] <ch>.attempts      hash
  KEYS[3] <ch>.priorities    hash (ng; absent for stock)
  KEYS[4] <ch>.messages      hash

  ARGV[1] limit              next jobs read, at most 100
  ARGV[2] head bytes         bytes of each message returned at most
  ARGV[3] copy limit         messages longer than this are not read
  ARGV[4..] count, seconds   bucket scales: `count` buckets of `seconds`
                             each from now, one pair per scale, in order

  Returns {now, total, overdue, oldest due score or '', due after the last
  bucket, {rows}, {bucket counts}} with each row {id, due, attempts,
  priority, message length (-1 when the message is gone), message head, head
  read (1 or 0)}, or
  {ErrorCode, key} when a key has the wrong type.
]]
local rcall = redis.call
-- @include layout
-- @include server-time
-- @include yii2-read

local delayedKey, attemptsKey, prioritiesKey, messagesKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local limit = math.min(tonumber(ARGV[1]), 100)
local reader = {attempts = attemptsKey, priorities = prioritiesKey, messages = messagesKey, headBytes = tonumber(ARGV[2]), copyLimit = tonumber(ARGV[3])}

local wrongKey = firstWrongTypedKey({delayedKey, 'zset', attemptsKey, 'hash', prioritiesKey, 'hash', messagesKey, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = serverNow()
local counts = {}
local lastEnd = now
for i = 4, #ARGV - 1, 2 do
  local count, seconds = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  for bucket = 0, count - 1 do
    lastEnd = now + (bucket + 1) * seconds
    counts[#counts + 1] = rcall('ZCOUNT', delayedKey, '(' .. (now + bucket * seconds), lastEnd)
  end
end

local rows = scoredRows(reader, delayedKey, 0, limit)
local oldest = rcall('ZRANGEBYSCORE', delayedKey, '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1)
return {
  now,
  rcall('ZCARD', delayedKey),
  rcall('ZCOUNT', delayedKey, '-inf', now),
  oldest[2] or '',
  rcall('ZCOUNT', delayedKey, '(' .. lastEnd, '+inf'),
  rows,
  counts,
}
