--[[
  FAIL: a job will not be tried again. The hash stays where it is, gains
  error and failed_at, and its id joins queue:failed scored by the unix
  second, so a retry puts back the very job that failed.

  Applied only while the caller still holds the claim (see includes/settle.lua).

  KEYS[1] q:{queue}:s:{level}   the stream the job was reserved from
  KEYS[2] q:{queue}:delayed
  KEYS[3] queue:failed
  KEYS[4] j:{id}

  ARGV[1] prefix                for the unique key read from the hash
  ARGV[2] group
  ARGV[3] id
  ARGV[4] entry id
  ARGV[5] reserved_by
  ARGV[6] reserved_until
  ARGV[7] error message         cut at 60000 bytes

  Returns {1} when failed, {0} when the claim had been lost, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include fail-job
-- @include settle

local stream, delayedKey, failedKey, job = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

local wrongKey = firstWrongTypedKey({delayedKey, 'zset', failedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
-- The stream and the hash are checked by settleHeldJob's first command on each.

return settleHeldJob('fail', stream, delayedKey, failedKey, job, ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], 0, ARGV[7])
