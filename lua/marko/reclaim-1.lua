--[[
  MARKO RECLAIM: ends a live reservation now, for a worker the operator
  knows is gone: scores it 0 (the layout note's `ZADD :reserved XX 0 id`,
  §4.6), so marko's next pop of this queue moves it back to the ready list
  as it moves every expired reservation, and its limit check applies as
  usual. If the worker is in fact alive, the job runs twice; Redis cannot
  tell, since marko records no holder.

  KEYS[1] {prefix}queues:{queue}:reserved   sorted set, scored by the second the reservation runs out

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
