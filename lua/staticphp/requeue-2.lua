--[[
  REQUEUE: puts failed jobs back on their own queue at level 0, on the
  database driver's terms (lua/includes/requeue.lua): attempts 0,
  max_attempts as given, priority 0, no unique key, same queue, same id;
  error, failed_at and last_error are left empty, as the PHP REQUEUE leaves
  them.

  Unlike the PHP driver, an id that is not in queue:failed at this moment is
  skipped rather than requeued, so a retry can never duplicate a live job and
  two operators retrying at once requeue each job once.

  KEYS[1] queue:failed
  KEYS[2] queue:queues

  ARGV[1] prefix                for the keys derived from data
  ARGV[2] max_attempts          '' keeps each job's own
  ARGV[3..] job ids             a bounded batch

  Returns {{requeued ids}, {ids not in the failed set}, {ids whose hash was
  gone, now removed from the failed set}, {the queues the requeued jobs went
  back to, each once}}, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include requeue

local failedKey, queuesKey = KEYS[1], KEYS[2]
local prefix, maxAttempts = ARGV[1], ARGV[2]

local wrongKey = firstWrongTypedKey({failedKey, 'zset', queuesKey, 'set'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = serverNow()
local requeued, notFailed, missing, queues, seen = {}, {}, {}, {}, {}
for i = 3, #ARGV do
  local id = ARGV[i]
  -- `detail` is the queue of a requeued job, the wrong-typed key of a refusal.
  local outcome, detail = requeueFailed(failedKey, queuesKey, prefix, id, maxAttempts, now)
  if outcome == 'wrong-type' then return {ErrorCode.WrongKeyType, detail} end
  if outcome == 'requeued' then
    requeued[#requeued + 1] = id
    if not seen[detail] then
      seen[detail] = true
      queues[#queues + 1] = detail
    end
  end
  if outcome == 'not-failed' then notFailed[#notFailed + 1] = id end
  if outcome == 'missing' then missing[#missing + 1] = id end
end
return {requeued, notFailed, missing, queues}
