--[[
  RELEASE: a worker gives a job back to run again after a delay; it waits in
  the delayed set and rejoins the back of its stream when promoted.
  attempts is left as the claim counted it; last_error says why.

  Applied only while the caller still holds the claim (see includes/settle.lua).

  KEYS[1] q:{queue}:s:{level}   the stream the job was reserved from
  KEYS[2] q:{queue}:delayed
  KEYS[3] j:{id}

  ARGV[1] prefix                for the job's own stream, to tell a lost entry
  ARGV[2] group
  ARGV[3] id
  ARGV[4] entry id
  ARGV[5] reserved_by
  ARGV[6] reserved_until
  ARGV[7] delay in seconds
  ARGV[8] error message         stored as last_error, cut at 60000 bytes

  Returns {1} when released, {0} when the claim had been lost, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include fail-job
-- @include settle

local stream, delayedKey, job = KEYS[1], KEYS[2], KEYS[3]

local wrongKey = firstWrongTypedKey({delayedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
-- The stream and the hash are checked by settleHeldJob's first command on each.

return settleHeldJob('release', stream, delayedKey, nil, job, ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6],
  math.max(0, math.floor(tonumber(ARGV[7]) or 0)), ARGV[8])
