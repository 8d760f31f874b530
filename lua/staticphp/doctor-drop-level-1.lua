--[[
  DOCTOR DROP LEVEL: removes a level from q:{queue}:levels when its stream
  does not exist. Harmless to reserve (it recreates the stream with its
  group), but it is a level that holds nothing.

  KEYS[1] q:{queue}:levels

  ARGV[1] prefix                for the stream key
  ARGV[2] queue
  ARGV[3] level

  Returns {1} when removed, {0} when the level was gone or its stream exists.
]]
local rcall = redis.call
-- @include layout

local levelsKey = KEYS[1]
local prefix, queue, level = ARGV[1], ARGV[2], ARGV[3]

if rcall('TYPE', levelsKey).ok ~= 'zset' or not rcall('ZSCORE', levelsKey, level) then return {0} end
if rcall('EXISTS', streamKey(prefix, queue, level)) == 1 then return {0} end
rcall('ZREM', levelsKey, level)
return {1}
