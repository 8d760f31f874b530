--[[
  YII2 ARM MARKER: adds ng's wake-up marker when its line holds jobs but the
  marker is gone, as every ng script that leaves the line non-empty does;
  blocked ng listeners otherwise wait out their timeout.

  KEYS[1] <ch>.prioritized   sorted set (ng's line)
  KEYS[2] <ch>.marker        sorted set

  Returns {1} when armed, {0} when the line is empty or the marker is there,
  or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local prioritizedKey, markerKey = KEYS[1], KEYS[2]

local wrongKey = firstWrongTypedKey({prioritizedKey, 'zset', markerKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if rcall('ZCARD', prioritizedKey) == 0 or rcall('EXISTS', markerKey) == 1 then return {0} end
rcall('ZADD', markerKey, 0, '0')
return {1}
