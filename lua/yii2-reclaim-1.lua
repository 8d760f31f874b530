--[[
  YII2 RECLAIM: takes a reservation back even though it has not run out,
  for a holder the operator knows is gone. Scores it 0 (spec §4.6), so the
  driver's own mover puts it back in line at its next reserve (ng: or push)
  by its own rules: stock in front of the whole line, ng at the back of its
  priority (or its original place) as of that moment. If the holder is in
  fact alive, the job runs twice; Redis cannot tell.

  KEYS[1] <ch>.reserved   sorted set, scored by the expiry second

  ARGV[1] job id

  Returns {1} when it was reserved, {0} when it is not (any more), or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local reservedKey = KEYS[1]
local id = ARGV[1]

local wrongKey = firstWrongTypedKey({reservedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if not rcall('ZSCORE', reservedKey, id) then return {0} end
rcall('ZADD', reservedKey, 'XX', 0, id)
return {1}
