--[[
  YII2 DROP DANGLING: removes an id whose message is gone from one index. In
  the stock list such an id makes a reserve come back empty, which ends
  `queue/run` before the real jobs behind it; ng discards it when popped; in
  the delayed and reserved sets it is counted as a job.

  Re-checks that the message is still gone.

  KEYS[1] <ch>.messages   hash
  KEYS[2] the index: <ch>.waiting (list), or <ch>.prioritized, <ch>.delayed or <ch>.reserved (sorted sets)

  ARGV[1] job id

  Returns {1} when the id was dropped, {0} when its message exists again or
  the index no longer holds it, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local messagesKey, indexKey = KEYS[1], KEYS[2]
local id = ARGV[1]

local wrongKey = firstWrongTypedKey({messagesKey, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
local indexType = rcall('TYPE', indexKey).ok
if indexType == 'none' then return {0} end
if indexType ~= 'list' and indexType ~= 'zset' then return {ErrorCode.WrongKeyType, indexKey} end
if rcall('HEXISTS', messagesKey, id) == 1 then return {0} end

local removed
if indexType == 'list' then
  removed = rcall('LREM', indexKey, 0, id)
else
  removed = rcall('ZREM', indexKey, id)
end
return {removed > 0 and 1 or 0}
