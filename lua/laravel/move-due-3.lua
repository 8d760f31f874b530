--[[
  LARAVEL MOVE DUE: moves the delayed payloads that are due (scored at or
  before now, by the Redis server's clock) onto the ready list's tail with a
  notify token each, as Laravel's own migrateExpiredJobs script does at the
  start of every pop (Illuminate\Queue\LuaScripts): the same lowest-scored
  members, the same RPUSH order, the same token. Bounded: at most `limit`
  members a call, the earliest due first, and how many are still due after
  it, so a caller repeats it in steps; Laravel's own migrate moves every due
  member in one call. Exact bytes move: nothing is decoded.

  KEYS[1] {prefix}queues:{queue}:delayed   sorted set, scored by the second it is due
  KEYS[2] {prefix}queues:{queue}           list, ready payloads
  KEYS[3] {prefix}queues:{queue}:notify    list, wake-up tokens

  ARGV[1] limit                            members moved at most

  Returns {moved, still due}, or {ErrorCode.WrongKeyType, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local delayedKey, readyKey, notifyKey = KEYS[1], KEYS[2], KEYS[3]
local limit = tonumber(ARGV[1])

local wrongKey = firstWrongTypedKey({delayedKey, 'zset', readyKey, 'list', notifyKey, 'list'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = serverNow()
local due = rcall('ZRANGEBYSCORE', delayedKey, '-inf', now, 'LIMIT', 0, limit)
if #due > 0 then
  rcall('ZREMRANGEBYRANK', delayedKey, 0, #due - 1)
  for _, payload in ipairs(due) do
    rcall('RPUSH', readyKey, payload)
    rcall('RPUSH', notifyKey, 1)
  end
end
return {#due, rcall('ZCOUNT', delayedKey, '-inf', now)}
