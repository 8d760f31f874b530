--[[
  DOCTOR DROP FAILED: removes an id from queue:failed when its job hash is
  gone: there is nothing left to retry or read, only a count that is wrong.

  KEYS[1] queue:failed

  ARGV[1] prefix                for the job key
  ARGV[2] id

  Returns {1} when removed, {0} when the id was gone or its hash is back.
]]
local rcall = redis.call
-- @include layout

local failedKey = KEYS[1]
local prefix, id = ARGV[1], ARGV[2]

if rcall('TYPE', failedKey).ok ~= 'zset' or not rcall('ZSCORE', failedKey, id) then return {0} end
if rcall('TYPE', jobKey(prefix, id)).ok == 'hash' then return {0} end
rcall('ZREM', failedKey, id)
return {1}
