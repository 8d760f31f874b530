--[[
  REQUEUE: puts failed jobs back on their own queue at level 0, on the
  database driver's terms: attempts 0, max_attempts as given, priority 0,
  no unique key, same queue, same id; error, failed_at and last_error are
  left empty, as the PHP REQUEUE leaves them.

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
  else
    local fields = rcall('TYPE', job).ok == 'hash' and rcall('HMGET', job, 'queue', 'max_attempts') or {}
    local queue = fields[1]
    if not queue then
      rcall('ZREM', failedKey, id)
      missing[#missing + 1] = id
    else
      local stream, levels = streamKey(prefix, queue, '0'), levelsKeyOf(prefix, queue)
      wrongKey = firstWrongTypedKey({stream, 'stream', levels, 'zset'})
      if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
      rcall('ZREM', failedKey, id)
      -- What PHP's REQUEUE leaves: error, failed_at and last_error emptied,
      -- not deleted (rich-layout's job 15, put back by retryFailed(15, 3)).
      rcall('HSET', job,
        'attempts', 0,
        'max_attempts', maxAttempts ~= '' and maxAttempts or (fields[2] or 3),
        'priority', 0,
        'unique_key', '',
        'available_at', now,
        'reserved_until', 0,
        'reserved_by', '',
        'last_error', '',
        'entry', rcall('XADD', stream, '*', 'job', id),
        'error', '',
        'failed_at', '')
      rcall('ZADD', levels, 0, '0')
      rcall('SADD', queuesKey, queue)
      requeued[#requeued + 1] = id
    end
  end
end
return {requeued, notFailed, missing}
