--[[
  MARKO FORGET FAILED: deletes failed jobs for good, each record together
  with its index entry, as marko's own RedisFailedJobRepository::delete()
  does. Workers only ever add failed records, so this is safe while they run.
  Either half alone counts as the job (a record with no index entry, an index
  entry with no record): both are gone afterwards.

  KEYS[1] {prefix}failed_jobs          hash, id -> JSON
  KEYS[2] {prefix}failed_jobs:index    sorted set, id scored by the second it failed

  ARGV[1..] failed job ids             a bounded batch

  Returns {number of failed jobs forgotten}, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local recordsKey, indexKey = KEYS[1], KEYS[2]

local wrongKey = firstWrongTypedKey({recordsKey, 'hash', indexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local forgotten = 0
for i = 1, #ARGV do
  local removedRecord = rcall('HDEL', recordsKey, ARGV[i])
  local removedEntry = rcall('ZREM', indexKey, ARGV[i])
  if removedRecord + removedEntry > 0 then forgotten = forgotten + 1 end
end
return {forgotten}
