--[[
  YII2 READ LINE: one page of a channel's waiting jobs in the order the
  driver runs them, with each job's attempts, stored priority and the start
  of its message, in one snapshot. Reads only.

  The stock driver pops the waiting list's tail, so its line is the list
  read tail-first. redis-ng pops the prioritized set's lowest score; the
  stock list's ids are the jobs it has yet to take over (RPOP, so tail-first
  too), a second section with its own page.

  Due delayed jobs and expired reservations are in neither: the driver moves
  them into the line on its next reserve (stock: onto the tail, ahead of
  every row; ng: by their priority). They are counted by score against the
  server's clock (ZCOUNT, O(log n)), at or before now as the movers select
  them, so a page can say so above its first row.

  KEYS[1] <ch>.waiting       list
  KEYS[2] <ch>.prioritized   sorted set (ng)
  KEYS[3] <ch>.attempts      hash
  KEYS[4] <ch>.priorities    hash (ng)
  KEYS[5] <ch>.messages      hash
  KEYS[6] <ch>.delayed       sorted set, scored by the due second
  KEYS[7] <ch>.reserved      sorted set, scored by the expiry second

  ARGV[1] driver             'yii2' (stock) or 'yii2-ng'
  ARGV[2] line offset        rows of the line skipped
  ARGV[3] line limit         rows of the line read, at most 100
  ARGV[4] takeover offset    ng: rows of the stock list skipped
  ARGV[5] takeover limit     ng: rows of the stock list read, at most 100
  ARGV[6] head bytes         bytes of each message returned at most
  ARGV[7] copy limit         messages longer than this are not read (their
                             head comes back empty and flagged unread)

  Returns {now, line total, takeover total, {line rows}, {takeover rows},
  due delayed, expired reserved} with each row {id, score, attempts,
  priority, message length (-1 when the message is gone), message head, head
  read (1 or 0)}; takeover total is -1 for stock. Or
  {ErrorCode, key} when a key has the wrong type.
]]
local rcall = redis.call
-- @include layout
-- @include server-time
-- @include yii2-read

local waitingKey, prioritizedKey, attemptsKey, prioritiesKey, messagesKey, delayedKey, reservedKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local ng = ARGV[1] == 'yii2-ng'
local MAX_ROWS = 100
local lineOffset, lineLimit = tonumber(ARGV[2]), math.min(tonumber(ARGV[3]), MAX_ROWS)
local takeoverOffset, takeoverLimit = tonumber(ARGV[4]), math.min(tonumber(ARGV[5]), MAX_ROWS)
local reader = {attempts = attemptsKey, priorities = prioritiesKey, messages = messagesKey, headBytes = tonumber(ARGV[6]), copyLimit = tonumber(ARGV[7])}

local wrongKey = firstWrongTypedKey({
  waitingKey, 'list', prioritizedKey, 'zset', attemptsKey, 'hash', prioritiesKey, 'hash', messagesKey, 'hash',
  delayedKey, 'zset', reservedKey, 'zset',
})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local function stockRows(offset, limit)
  return tailRows(reader, waitingKey, offset, limit)
end

local now = serverNow()
local dueDelayed, expiredReserved = rcall('ZCOUNT', delayedKey, '-inf', now), rcall('ZCOUNT', reservedKey, '-inf', now)

if not ng then
  return {now, rcall('LLEN', waitingKey), -1, stockRows(lineOffset, lineLimit), {}, dueDelayed, expiredReserved}
end

local line = scoredRows(reader, prioritizedKey, lineOffset, lineLimit)
return {now, rcall('ZCARD', prioritizedKey), rcall('LLEN', waitingKey), line, stockRows(takeoverOffset, takeoverLimit), dueDelayed, expiredReserved}
