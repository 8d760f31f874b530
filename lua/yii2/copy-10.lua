--[[
  YII2 COPY: runs a copy of a job (Run a copy): a new job with a new id from
  the channel's own counter and the message's exact bytes (or, for a
  JSON-serialized message, the body the operator edited after the same TTR
  prefix), placed as the driver's push places a new job
  (shared/spec/yii2-queue-redis-layout.md §2.1): INCR message_id, HSET the
  message, then with no delay the stock LPUSH onto the head of waiting (the
  end that runs last) or ng's join of the line at this millisecond with a
  fresh seq and the marker armed; with a delay, ZADD delayed at the Redis
  second + delay (ng first remembering the rank when delayPosition is
  original). ng's own push also settles due jobs and expired reservations
  first; the copy leaves them to the next push or reserve. Under ng the
  original's stored priority is the copy's too; its attempts are not (a new
  job has none).

  A message that does not start with `<ttr>;` is not copied: neither driver
  runs one (ng's reserve fails on it and leaves an orphan, the stock driver
  deletes it as failed). An edit is refused unless the original is
  JSON-serialized (PHP serialize() output has byte counts in it, and an
  edit of it is a different object) and the edit is a JSON object naming its
  class, as yii2-queue's JsonSerializer reads one.

  It waits for the stock moving_lock to be free (see movingLockFree), as
  every yii2 repair that places a job does.

  KEYS[1]  <ch>.message_id    string
  KEYS[2]  <ch>.messages      hash
  KEYS[3]  <ch>.waiting       list (the stock line)
  KEYS[4]  <ch>.prioritized   sorted set (ng's line)
  KEYS[5]  <ch>.delayed       sorted set
  KEYS[6]  <ch>.priorities    hash
  KEYS[7]  <ch>.ranks         hash
  KEYS[8]  <ch>.marker        sorted set
  KEYS[9]  <ch>.seq           string
  KEYS[10] <ch>.moving_lock   string

  ARGV[1..5] the driver (yii2 or yii2-ng) and ng's placing settings, as
             ngSettingsFrom reads them (lua/includes/yii2-line.lua)
  ARGV[6] job id             the job copied
  ARGV[7] delay              whole seconds, 0 for none
  ARGV[8] edited             1 when ARGV[9] replaces the body, else 0
  ARGV[9] body               the edited body (after the TTR prefix)

  Returns {outcome, new id}: outcome is copied (with the new id), gone (no
  message), no-ttr, not-json (an edit of a message that is not
  JSON-serialized) or bad-edit (the edit is no JSON object with a "class");
  or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include yii2-line

local keys = {
  messageId = KEYS[1], messages = KEYS[2], waiting = KEYS[3], prioritized = KEYS[4], delayed = KEYS[5],
  priorities = KEYS[6], ranks = KEYS[7], marker = KEYS[8], seq = KEYS[9], movingLock = KEYS[10],
}
local ng = ngSettingsFrom(ARGV)
local id, delay, edited, body = ARGV[6], tonumber(ARGV[7]) or 0, ARGV[8] == '1', ARGV[9]

local wrongKey = firstWrongTypedKey({
  keys.messageId, 'string', keys.messages, 'hash', keys.waiting, 'list', keys.prioritized, 'zset', keys.delayed, 'zset',
  keys.priorities, 'hash', keys.ranks, 'hash', keys.marker, 'zset', keys.seq, 'string', keys.movingLock, 'string',
})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if not movingLockFree(keys.movingLock) then return movingLockHeld(keys.movingLock) end

local message = rcall('HGET', keys.messages, id)
if not message then return {'gone', ''} end
local ttr = string.match(message, '^([1-9][0-9]*);')
if not ttr or #ttr > 20 then return {'no-ttr', ''} end

if edited then
  if string.sub(message, #ttr + 2, #ttr + 2) ~= '{' then return {'not-json', ''} end
  local ok, decoded = pcall(cjson.decode, body)
  if not ok or type(decoded) ~= 'table' or type(decoded['class']) ~= 'string' then return {'bad-edit', ''} end
  message = ttr .. ';' .. body
end

local newId = rcall('INCR', keys.messageId)
rcall('HSET', keys.messages, newId, message)
local time = rcall('TIME')
local nowS = tonumber(time[1])
local nowMs = nowS * 1000 + math.floor(tonumber(time[2]) / 1000)

if ng then
  local priority = rcall('HGET', keys.priorities, id)
  if priority then rcall('HSET', keys.priorities, newId, priority) end
end

if delay > 0 then
  if ng and ng.delayKeepsPlace then rcall('HSET', keys.ranks, newId, string.format('%.0f:%.0f', nowMs, rcall('INCR', keys.seq))) end
  rcall('ZADD', keys.delayed, nowS + delay, newId)
elseif ng then
  ngEnqueue(keys, ng, newId, nowMs, false)
  ngArm(keys)
else
  rcall('LPUSH', keys.waiting, newId)
end
return {'copied', tostring(newId)}
