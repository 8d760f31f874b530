--[[
  DOCTOR FAIL EXHAUSTED: fails a job that waits in its stream although it has
  used all its attempts (attempts >= max_attempts), instead of letting a
  worker run it once more than allowed.

  Re-checks that the job is still waiting: its entry is in its stream and no
  worker has been handed it. Once a worker holds it, the worker decides (it
  fails a job past its max_attempts itself), so a repair racing a reserve
  either fails the job before the reserve sees it or leaves it to the worker.

  KEYS[1] j:{id}
  KEYS[2] queue:failed

  ARGV[1] prefix                for the stream and the unique key
  ARGV[2] group
  ARGV[3] id

  Returns {1} when failed, {0} when the job was no longer waiting with its
  attempts used, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include doctor
-- @include fail-job

local job, failedKey = KEYS[1], KEYS[2]
local prefix, group, id = ARGV[1], ARGV[2], ARGV[3]

local wrongKey = firstWrongTypedKey({failedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if rcall('TYPE', job).ok ~= 'hash' then return {0} end
local fields = rcall('HMGET', job, 'attempts', 'max_attempts', 'entry')
local attempts, maxAttempts = tonumber(fields[1]) or 0, tonumber(fields[2]) or 1
if attempts < maxAttempts then return {0} end
local stream = jobStream(prefix, job)
if not entryHoldsJob(stream, fields[3], id) or entryDelivered(stream, group, fields[3]) then return {0} end

rcall('XDEL', stream, fields[3])
markFailed(prefix, failedKey, job, id,
  'QueueLens doctor: the job was waiting to run although it had used all ' .. attempts .. ' of its '
    .. maxAttempts .. ' attempts.', serverNow())
return {1}
