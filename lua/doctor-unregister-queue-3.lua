--[[
  DOCTOR UNREGISTER QUEUE: removes a queue that has nothing left from
  queue:queues, with its empty streams (their consumer groups go with them),
  its levels and its delayed set. Nothing else ever sweeps them (see the
  spec's note on queue:queues); a later push or retry registers the queue
  again and a reserve recreates the group.

  Re-checks that every stream is empty and the delayed set is empty. Failed
  jobs of the queue cannot be counted here without reading the whole failed
  set; the check counted them, and retrying one re-registers its queue.

  KEYS[1] queue:queues
  KEYS[2] q:{queue}:levels
  KEYS[3] q:{queue}:delayed

  ARGV[1] prefix                for the stream keys
  ARGV[2] queue

  Returns {1} when unregistered, {0} when the queue is no longer empty (or
  has more than 100 levels, which this will not walk).
]]
local rcall = redis.call
-- @include layout

local queuesKey, levelsKey, delayedKey = KEYS[1], KEYS[2], KEYS[3]
local prefix, queue = ARGV[1], ARGV[2]
local MAX_LEVELS = 100

local wrongKey = firstWrongTypedKey({queuesKey, 'set', levelsKey, 'zset', delayedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if rcall('SISMEMBER', queuesKey, queue) == 0 then return {0} end
if rcall('ZCARD', delayedKey) > 0 or rcall('ZCARD', levelsKey) > MAX_LEVELS then return {0} end

local streams = {}
for _, level in ipairs(rcall('ZRANGE', levelsKey, 0, -1)) do
  local stream = streamKey(prefix, queue, level)
  local kind = rcall('TYPE', stream).ok
  if kind == 'stream' then
    if rcall('XLEN', stream) > 0 then return {0} end
    streams[#streams + 1] = stream
  elseif kind ~= 'none' then
    return {ErrorCode.WrongKeyType, stream}
  end
end

for _, stream in ipairs(streams) do rcall('DEL', stream) end
rcall('DEL', levelsKey, delayedKey)
rcall('SREM', queuesKey, queue)
return {1}
