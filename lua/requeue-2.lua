--[[
  REQUEUE: puts failed jobs back on their own queue at level 0, on the
  database driver's terms: attempts 0, max_attempts as given, priority 0,
  no unique key, error and failed_at cleared, same queue, same id.

  Unlike the PHP driver, an id that is not in queue:failed at this moment is
  skipped rather than requeued, so a retry can never duplicate a live job and
  two operators retrying at once requeue each job once.

  KEYS[1] queue:failed
  KEYS[2] queue:queues

  ARGV[1] prefix                for the keys derived from data
  ARGV[2] max_attempts          '' keeps each job's own
  ARGV[3..] job ids             a bounded batch

  Returns {{requeued ids}, {ids not in the failed set}, {ids whose hash was
  gone, now removed from the failed set}}, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout

local failedKey, queuesKey = KEYS[1], KEYS[2]
local prefix, maxAttempts = ARGV[1], ARGV[2]

local wrongKey = firstWrongTypedKey({failedKey, 'zset', queuesKey, 'set'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = serverNow()
local requeued, notFailed, missing = {}, {}, {}
for i = 3, #ARGV do
  local id = ARGV[i]
  local job = jobKey(prefix, id)
  if not rcall('ZSCORE', failedKey, id) then
    notFailed[#notFailed + 1] = id
  elseif rcall('TYPE', job).ok ~= 'hash' or not rcall('HGET', job, 'queue') then
    rcall('ZREM', failedKey, id)
    missing[#missing + 1] = id
  else
    local queue = rcall('HGET', job, 'queue')
    local stream, levels = streamKey(prefix, queue, '0'), levelsKeyOf(prefix, queue)
    wrongKey = firstWrongTypedKey({stream, 'stream', levels, 'zset'})
    if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
    rcall('ZREM', failedKey, id)
    rcall('HDEL', job, 'error', 'failed_at')
    rcall('HSET', job,
      'attempts', 0,
      'max_attempts', maxAttempts ~= '' and maxAttempts or (rcall('HGET', job, 'max_attempts') or 3),
      'priority', 0,
      'unique_key', '',
      'available_at', now,
      'reserved_until', 0,
      'reserved_by', '',
      'entry', rcall('XADD', stream, '*', 'job', id))
    rcall('ZADD', levels, 0, '0')
    rcall('SADD', queuesKey, queue)
    requeued[#requeued + 1] = id
  end
end
return {requeued, notFailed, missing}
