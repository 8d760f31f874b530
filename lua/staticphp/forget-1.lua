--[[
  FORGET: deletes failed jobs for good: each id leaves queue:failed and its
  hash is deleted. An id that is not in the failed set at this moment is left
  alone, so forgetting can never delete a live job.

  KEYS[1] queue:failed

  ARGV[1] prefix                for the job hashes
  ARGV[2..] job ids             a bounded batch

  Returns {number of jobs forgotten}, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local failedKey, prefix = KEYS[1], ARGV[1]

local wrongKey = firstWrongTypedKey({failedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local forgotten = 0
for i = 2, #ARGV do
  local id = ARGV[i]
  if rcall('ZREM', failedKey, id) == 1 then
    forgotten = forgotten + 1
    -- A key of another type under j:{id} is not a job; it stays for the doctor.
    if rcall('TYPE', jobKey(prefix, id)).ok == 'hash' then
      rcall('DEL', jobKey(prefix, id))
    end
  end
end
return {forgotten}
