--[[
  COMPLETE: a worker finished a job; the job and its unique key go away.

  Applied only while the caller still holds the claim; otherwise only the
  caller's own entry is dropped, if the job moved on from it (see
  includes/settle.lua).

  KEYS[1] q:{queue}:s:{level}   the stream the job was reserved from
  KEYS[2] q:{queue}:delayed     a job parked while its holder ran it sits here
  KEYS[3] j:{id}

  ARGV[1] prefix                for the unique key read from the hash
  ARGV[2] group
  ARGV[3] id
  ARGV[4] entry id              the stream entry the worker was handed
  ARGV[5] reserved_by           as the claim wrote them
  ARGV[6] reserved_until

  Returns {1} when completed, {0} when the claim had been lost, or {ErrorCode, key}.
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

return settleHeldJob('complete', stream, delayedKey, nil, job, ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
