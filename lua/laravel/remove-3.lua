--[[
  LARAVEL REMOVE: deletes one job the operator saw, by its payload's exact
  bytes: one element of the ready list (LREM count 1, from the head) or the
  member of the delayed or reserved set. Laravel's pop and migrate are
  scripts too, so the job is either still where it was read or moved with
  the same bytes (a release moves the reserved payload to the delayed set,
  a migrate moves a due or expired one to the ready list): wherever those
  bytes are now, they go. Bytes that changed (a pop re-encodes the payload
  it reserves) are another job as far as this script knows, and left alone.
  A reserved job's worker finds its reservation gone: its delete is then a
  ZREM of nothing, and its release puts the job back in the delayed set.
  The notify token a ready job leaves only wakes a blocking pop once for
  nothing, as Laravel's own tokens often do.

  KEYS[1] {prefix}queues:{queue}            list, ready payloads
  KEYS[2] {prefix}queues:{queue}:delayed    sorted set
  KEYS[3] {prefix}queues:{queue}:reserved   sorted set

  ARGV[1] the payload as read

  Returns {1} when it was removed, {0} when those bytes are nowhere any
  more, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local readyKey, delayedKey, reservedKey = KEYS[1], KEYS[2], KEYS[3]
local payload = ARGV[1]

local wrongKey = firstWrongTypedKey({readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

if rcall('ZREM', reservedKey, payload) + rcall('ZREM', delayedKey, payload) > 0 then return {1} end
if rcall('LREM', readyKey, 1, payload) > 0 then return {1} end
return {0}
