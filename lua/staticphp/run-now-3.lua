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

  A job parked while its holder's claim is live (reserved_until still ahead
  by the server's clock) is refused and stays where it is.

  Returns {'promoted', entry id, level}, {'not-delayed'} when the id is not
  in the delayed set, {'gone'} when it was but its hash is gone (the id is
  removed from the set), {'held', reserved_by, reserved_until} for a parked
  job whose holder's claim is live, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
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

local held = rcall('HMGET', job, 'priority', 'reserved_by', 'reserved_until')
-- A parked job's holder still runs it: a second stream entry would only be
-- parked again by the next RESERVE, and moving its deadline would hand the
-- live claim to a second worker beside the first. It runs once the claim ends.
if (tonumber(held[3]) or 0) > serverNow() then return {'held', held[2] or '', held[3]} end

local level = levelOf(held[1])
local stream = streamKey(prefix, queue, level)
wrongKey = firstWrongTypedKey({stream, 'stream'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

rcall('ZREM', delayedKey, id)
local entry = rcall('XADD', stream, '*', 'job', id)
rcall('HSET', job, 'entry', entry)
rcall('ZADD', levelsKey, level, level)
return {'promoted', entry, level}
