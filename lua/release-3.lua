--[[
  RELEASE: a worker gives a job back to run again after a delay; it waits in
  the delayed set and rejoins the back of its stream when promoted.
  attempts is left as the claim counted it; last_error says why.

  Applied only while the caller still holds the claim (see holdsReservation).

  KEYS[1] q:{queue}:s:{level}   the stream the job was reserved from
  KEYS[2] q:{queue}:delayed
  KEYS[3] j:{id}

  ARGV[1] group
  ARGV[2] id
  ARGV[3] entry id
  ARGV[4] reserved_by
  ARGV[5] reserved_until
  ARGV[6] delay in seconds
  ARGV[7] error message         stored as last_error, cut at 60000 bytes

  Returns {1} when released, {0} when the claim had been lost, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout

local stream, delayedKey, job = KEYS[1], KEYS[2], KEYS[3]
local group, id, entry = ARGV[1], ARGV[2], ARGV[3]

local wrongKey = firstWrongTypedKey({stream, 'stream', delayedKey, 'zset', job, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

if not holdsReservation(job, ARGV[4], ARGV[5]) then
  dropLostEntry(stream, group, job, entry)
  return {0}
end

local availableAt = serverNow() + math.max(0, math.floor(tonumber(ARGV[6]) or 0))
ackAndDelete(stream, group, entry)
rcall('ZADD', delayedKey, availableAt, id)
rcall('HSET', job,
  'available_at', availableAt,
  'reserved_until', 0,
  'reserved_by', '',
  'entry', '',
  'last_error', truncateError(ARGV[7]))
return {1}
