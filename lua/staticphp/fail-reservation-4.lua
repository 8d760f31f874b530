--[[
  FAIL RESERVATION: an operator fails a held job for good, with a reason,
  on fail()'s terms: the entry is acknowledged and deleted, the unique key
  freed, reserved fields and entry cleared, error (cut at 60000 bytes) and
  failed_at written, and the id joins queue:failed scored by the unix second.

  Applied only while the entry is still in the group's pending list and the
  hash still names the entry, holder, deadline and attempts the operator saw;
  otherwise nothing is changed.

  KEYS[1] q:{queue}:s:{level}   the stream holding the entry
  KEYS[2] q:{queue}:delayed
  KEYS[3] queue:failed
  KEYS[4] j:{id}

  ARGV[1] prefix                for the unique key and the job's own stream
  ARGV[2] group
  ARGV[3] id
  ARGV[4] entry id              as the operator saw it
  ARGV[5] reserved_by           as the operator saw it
  ARGV[6] reserved_until        as the operator saw it
  ARGV[7] attempts              as the operator saw it
  ARGV[8] error message         cut at 60000 bytes

  Returns {1} when failed, {0, reason} when the reservation changed
  meanwhile (reason 'not-pending' or 'claim-changed'), or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include server-time
-- @include layout
-- @include fail-job
-- @include reservation-check

local stream, delayedKey, failedKey, job = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local prefix, group, id, entry = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

local wrongKey = firstWrongTypedKey({stream, 'stream', delayedKey, 'zset', failedKey, 'zset', job, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

if not stillPending(stream, group, entry) then return {0, 'not-pending'} end
if not claimUnchanged(job, stream, prefix, entry, ARGV[5], ARGV[6], ARGV[7]) then return {0, 'claim-changed'} end

local now = serverNow()
rcall('XACK', stream, group, entry)
rcall('XDEL', stream, entry)
rcall('ZREM', delayedKey, id)
markFailed(prefix, failedKey, job, id, ARGV[8], now)
return {1}
