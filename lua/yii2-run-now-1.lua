--[[
  YII2 RUN NOW: makes a delayed job due this second (spec §4.6), so the
  driver's own mover takes it at its next reserve (ng: or push) and places it
  by its own rules. The current second, not 0: ng with aging places a due job
  by its due time, and 0 would put it ahead of everything.

  KEYS[1] <ch>.delayed   sorted set, scored by the due second

  ARGV[1] job id

  Returns {1} when it was delayed, {0} when it is not (any more), or
  {ErrorCode, key}.
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
if due > now then rcall('ZADD', delayedKey, 'XX', now, id) end
return {1}
