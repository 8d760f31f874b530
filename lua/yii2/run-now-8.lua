--[[
  YII2 RUN NOW: puts a delayed job that is not due yet into line now, where
  the driver's own mover would put it had it come due this second (see
  joinLineNow): stock onto the tail of the waiting list; ng at this second,
  its rank kept with delayPosition=original, the marker armed. Due jobs that
  no worker has moved yet still go ahead of it at the next move, as they
  would ahead of a job due this second.

  A job that is due already is left where it is: a stock mover may have read
  it and be about to push it. The mover, or "Move due jobs", takes it.

  It waits for the stock moving_lock to be free (see movingLockFree).

  KEYS[1] <ch>.waiting       list (the stock line)
  KEYS[2] <ch>.prioritized   sorted set (ng's line)
  KEYS[3] <ch>.delayed       sorted set, scored by the due second
  KEYS[4] <ch>.priorities    hash
  KEYS[5] <ch>.marker        sorted set
  KEYS[6] <ch>.seq           string
  KEYS[7] <ch>.ranks         hash
  KEYS[8] <ch>.moving_lock   string

  ARGV[1..5] the driver (yii2 or yii2-ng) and ng's placing settings, as
             ngSettingsFrom reads them (lua/includes/yii2-line.lua)
  ARGV[6] job id

  Returns {1} when it was delayed, {0} when it is not (any more), or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time
-- @include yii2-line

local keys, wrongKey = lineKeysFrom(KEYS)
local ng = ngSettingsFrom(ARGV)
local id = ARGV[6]

if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local due = tonumber(rcall('ZSCORE', keys.from, id))
if not due then return {0} end
local nowS = serverNow()
if due <= nowS then return {1} end
if not movingLockFree(keys.movingLock) then return movingLockHeld(keys.movingLock) end

joinLineNow(keys, ng, id, nowS * 1000, ng and ng.delayKeepsPlace)
rcall('ZREM', keys.from, id)
return {1}
