--[[
  LARAVEL MOVE TO READY: takes one payload the operator saw out of a sorted
  set (the delayed set: Run now; the reserved set: put an expired
  reservation back) and appends those exact bytes to the ready list with a
  notify token, as Laravel's migrateExpiredJobs script does for every due
  member at the next pop. Only that member moves; one no longer in the set
  (a pop migrated it, a worker deleted or released it) is left alone. From
  the reserved set, a reservation still live is refused: its worker is
  within retry_after and would run the job a second time. The payload keeps
  its attempts, as migrate keeps them: the next pop counts one more.

  KEYS[1] {prefix}queues:{queue}:delayed or :reserved   sorted set, the source
  KEYS[2] {prefix}queues:{queue}                        list, ready payloads
  KEYS[3] {prefix}queues:{queue}:notify                 list, wake-up tokens

  ARGV[1] the payload as read
  ARGV[2] 'expired' to move it only when its score is at or before now
          (by the Redis server's clock), 'any' to move it whatever its score

  Returns {1} when moved, {0} when it was not in the set any more,
  {ErrorCode.LiveReservation, key}, or {ErrorCode.WrongKeyType, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local sourceKey, readyKey, notifyKey = KEYS[1], KEYS[2], KEYS[3]
local payload, when = ARGV[1], ARGV[2]

local wrongKey = firstWrongTypedKey({sourceKey, 'zset', readyKey, 'list', notifyKey, 'list'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
local score = tonumber(rcall('ZSCORE', sourceKey, payload))
if not score then return {0} end
if when == 'expired' and score > serverNow() then return {ErrorCode.LiveReservation, sourceKey} end
rcall('ZREM', sourceKey, payload)
rcall('RPUSH', readyKey, payload)
-- Laravel's push and migrate push the token 1.
rcall('RPUSH', notifyKey, 1)
return {1}
