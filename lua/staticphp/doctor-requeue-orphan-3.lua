--[[
  DOCTOR REQUEUE ORPHAN: puts a job hash that nothing points at (no stream
  entry, not delayed, not failed) back at the end of its queue's stream at
  its own priority, keeping its attempts and max_attempts. A hash is the job
  and complete() deletes it, so an orphan is work that never ran to the end:
  requeueing keeps it, deleting it would lose it silently.

  Re-checks inside the script that the job is still an orphan; otherwise
  changes nothing.

  KEYS[1] j:{id}
  KEYS[2] queue:failed
  KEYS[3] queue:queues

  ARGV[1] prefix                for the keys derived from the job's queue
  ARGV[2] id

  Returns {1} when requeued, {0} when the job was no longer an orphan (or has
  no queue to go back to), or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include doctor

local job, failedKey, queuesKey = KEYS[1], KEYS[2], KEYS[3]
local prefix, id = ARGV[1], ARGV[2]

if rcall('TYPE', job).ok ~= 'hash' then return {0} end
local fields = rcall('HMGET', job, 'queue', 'priority', 'entry')
local queue = fields[1]
if not queue or queue == '' then return {0} end
local level = levelOf(fields[2])
local stream = streamKey(prefix, queue, level)
local delayedKey = prefix .. 'q:' .. queue .. ':delayed'
local levelsKey = levelsKeyOf(prefix, queue)

local wrongKey = firstWrongTypedKey({failedKey, 'zset', queuesKey, 'set', stream, 'stream',
  delayedKey, 'zset', levelsKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

if rcall('ZSCORE', failedKey, id) or rcall('ZSCORE', delayedKey, id) then return {0} end
if entryHoldsJob(stream, fields[3], id) then return {0} end

rcall('HSET', job,
  'available_at', serverNow(),
  'reserved_until', 0,
  'reserved_by', '',
  'entry', rcall('XADD', stream, '*', 'job', id))
rcall('ZADD', levelsKey, level, level)
rcall('SADD', queuesKey, queue)
return {1}
