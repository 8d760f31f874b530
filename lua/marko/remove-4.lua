--[[
  MARKO REMOVE: deletes one job of one queue wherever it waits, as
  marko/queue-redis's own delete(id) does (layout note §3, §4.6): its id out
  of the ready list and the delayed and reserved sets, and its job hash
  gone. One script, so the driver's pop (a script too) sees the job either
  whole or not at all. A reserved job's worker finds it gone: marko's
  delete() and release() then answer false, as they do for any unknown id.
  The queue is the caller's: the hash's field names are not documented, so
  the hash is not read. A notify token the job leaves only wakes a blocking
  pop once for nothing (note §4.5).

  KEYS[1] {prefix}queues:{queue}            list, ready ids
  KEYS[2] {prefix}queues:{queue}:delayed    sorted set, scored by the second it is due
  KEYS[3] {prefix}queues:{queue}:reserved   sorted set, scored by the second the reservation runs out
  KEYS[4] {prefix}jobs:{id}                 hash, the job

  ARGV[1] job id

  Returns {1} when the job was anywhere in the queue or had a hash, {0}
  when it was gone already, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local readyKey, delayedKey, reservedKey, jobKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id = ARGV[1]

local wrongKey = firstWrongTypedKey({readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset', jobKey, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local removed = rcall('LREM', readyKey, 0, id) + rcall('ZREM', delayedKey, id) + rcall('ZREM', reservedKey, id) + rcall('DEL', jobKey)
if removed > 0 then return {1} end
return {0}
