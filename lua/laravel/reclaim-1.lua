--[[
  LARAVEL RECLAIM: ends a live reservation now, for a worker the operator
  knows is gone: scores the payload the operator saw 0 in the reserved set,
  so Laravel's next pop of this queue moves it back to the ready list as
  its migrate moves every expired reservation (with its notify token and
  the attempts it has). Until a pop does, a worker that is in fact alive
  still settles it as usual: its delete and its release take those exact
  bytes out of the reserved set, so nothing runs twice. Only once a pop
  has moved it back does a live worker's job run twice (and a release then
  adds a second copy to the delayed set): Redis cannot tell, since
  Laravel records no holder. Bytes no longer in the set (deleted,
  released, migrated, or re-encoded by another pop) are left alone.

  KEYS[1] {prefix}queues:{queue}:reserved   sorted set, scored by the second the reservation runs out

  ARGV[1] the payload as read

  Returns {1} when it was reserved, {0} when it is not (any more) or its
  time has run out already (by the Redis server's clock), or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local reservedKey = KEYS[1]
local payload = ARGV[1]

local wrongKey = firstWrongTypedKey({reservedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
local score = tonumber(rcall('ZSCORE', reservedKey, payload))
if not score or score <= serverNow() then return {0} end
rcall('ZADD', reservedKey, 'XX', 0, payload)
return {1}
