--[[
  DOCTOR DROP DELAYED: removes an id from a delayed set when its job hash is
  gone. Reserve would drop it when it came due; until then it counts as a
  delayed job that does not exist.

  KEYS[1] q:{queue}:delayed

  ARGV[1] prefix                for the job key
  ARGV[2] id

  Returns {1} when removed, {0} when the id was gone or its hash is back.
]]
local rcall = redis.call
-- @include layout

local delayedKey = KEYS[1]
local prefix, id = ARGV[1], ARGV[2]

if rcall('TYPE', delayedKey).ok ~= 'zset' or not rcall('ZSCORE', delayedKey, id) then return {0} end
if rcall('TYPE', jobKey(prefix, id)).ok == 'hash' then return {0} end
rcall('ZREM', delayedKey, id)
return {1}
