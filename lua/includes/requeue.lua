-- Puts failed job `id` back on its own queue at level 0, on the database
-- driver's terms: attempts 0, max_attempts as given ('' keeps the job's
-- own), priority 0, no unique key, same queue, same id; error, failed_at and
-- last_error emptied, not deleted, as the PHP REQUEUE leaves them (the
-- rich-layout fixture's job 15, put back by retryFailed(15, 3)). Unlike the
-- PHP driver, an id that is not in queue:failed at this moment is skipped,
-- so a retry can never duplicate a live job. Needs layout.lua.
--
-- Returns 'requeued' and the queue it went back to, 'not-failed', 'missing'
-- (its hash was gone: taken off the failed set), or 'wrong-type' and the key
-- that holds the wrong type.
local function requeueFailed(failedKey, queuesKey, prefix, id, maxAttempts, now)
  if not rcall('ZSCORE', failedKey, id) then return 'not-failed' end
  local job = jobKey(prefix, id)
  local fields = rcall('TYPE', job).ok == 'hash' and rcall('HMGET', job, 'queue', 'max_attempts') or {}
  local queue = fields[1]
  if not queue then
    rcall('ZREM', failedKey, id)
    return 'missing'
  end
  local stream, levels = streamKey(prefix, queue, '0'), levelsKeyOf(prefix, queue)
  local wrongKey = firstWrongTypedKey({stream, 'stream', levels, 'zset'})
  if wrongKey then return 'wrong-type', wrongKey end
  rcall('ZREM', failedKey, id)
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
  return 'requeued', queue
end
