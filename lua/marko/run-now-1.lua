--[[
  MARKO RUN NOW: makes a delayed job due, the layout note's
  `ZADD :delayed XX <now> id` (§4.6): marko's pop moves every due job to the
  ready list itself, so where it joins the list is the driver's own choice.
  A second ago, not now: whether pop takes a job due at exactly now is not
  documented. A job already due is left as it is.

  KEYS[1] {prefix}queues:{queue}:delayed   sorted set, scored by the second it is due

  ARGV[1] job id

  Returns {1} when it is delayed (due now), {0} when it is not (any more),
  or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local delayedKey = KEYS[1]
local id = ARGV[1]

local wrongKey = firstWrongTypedKey({delayedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
local due = tonumber(rcall('ZSCORE', delayedKey, id))
if not due then return {0} end
local now = serverNow()
if due > now - 1 then rcall('ZADD', delayedKey, 'XX', now - 1, id) end
return {1}
