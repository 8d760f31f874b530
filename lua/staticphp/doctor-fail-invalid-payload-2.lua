--[[
  DOCTOR FAIL INVALID PAYLOAD: fails a waiting job whose payload is not JSON,
  with the message reserve would give it, so it shows in the failed list now
  rather than when a worker happens to reach it.

  Re-checks that the payload still does not decode, that the job is not
  already failed and that no worker holds it (a holder's reserve already
  fails such a job itself).

  KEYS[1] j:{id}
  KEYS[2] queue:failed

  ARGV[1] prefix                for the stream, the delayed set and the unique key
  ARGV[2] group
  ARGV[3] id
  ARGV[4] error message

  Returns {1} when failed, {0} when the job was no longer such a job, or
  {ErrorCode, key}.
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
if rcall('TYPE', job).ok ~= 'hash' or rcall('ZSCORE', failedKey, id) then return {0} end
local fields = rcall('HMGET', job, 'payload', 'entry', 'queue')
if pcall(cjson.decode, fields[1] or '') then return {0} end
local stream = jobStream(prefix, job)
local inStream = entryHoldsJob(stream, fields[2], id)
if inStream and entryDelivered(stream, group, fields[2]) then return {0} end

if inStream then rcall('XDEL', stream, fields[2]) end
local delayedKey = prefix .. 'q:' .. (fields[3] or '') .. ':delayed'
if rcall('TYPE', delayedKey).ok == 'zset' then rcall('ZREM', delayedKey, id) end
markFailed(prefix, failedKey, job, id, ARGV[4], serverNow())
return {1}
