--[[
  RUN NOW: moves one delayed job into its priority's stream at once, as a
  promotion would once it is due: XADD, entry updated, level registered.
  available_at is left as it was, as promotion leaves it: it still says
  when the job was scheduled for.

  Only an id that is in the delayed set at this moment is moved, so a job a
  worker promoted (or a reserve parked and then ran) meanwhile is never given
  a second stream entry: the answer then says it was not delayed.

  KEYS[1] q:{queue}:delayed
  KEYS[2] q:{queue}:levels
  KEYS[3] j:{id}             the job's hash

  ARGV[1] prefix             for the stream, derived from the job's priority
  ARGV[2] queue
  ARGV[3] job id

  Returns {'promoted', entry id, level}, {'not-delayed'} when the id is not
  in the delayed set, {'gone'} when it was but its hash is gone (the id is
  removed from the set), or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local delayedKey, levelsKey, job = KEYS[1], KEYS[2], KEYS[3]
local prefix, queue, id = ARGV[1], ARGV[2], ARGV[3]

local wrongKey = firstWrongTypedKey({delayedKey, 'zset', levelsKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

if not rcall('ZSCORE', delayedKey, id) then return {'not-delayed'} end

if rcall('TYPE', job).ok ~= 'hash' then
  -- Nothing left to run; a key of another type stays for the doctor to report.
  rcall('ZREM', delayedKey, id)
  return {'gone'}
end

local level = levelOf(rcall('HGET', job, 'priority'))
local stream = streamKey(prefix, queue, level)
wrongKey = firstWrongTypedKey({stream, 'stream'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

rcall('ZREM', delayedKey, id)
local entry = rcall('XADD', stream, '*', 'job', id)
rcall('HSET', job, 'entry', entry)
rcall('ZADD', levelsKey, level, level)
return {'promoted', entry, level}
