--[[
  YII2 RELEASE: puts one reservation back in line now, where the driver's own
  mover would put it at the next reserve (or, under ng, push), so the channel
  shows and runs it right even while nobody reserves: stock RPUSHes it onto
  the tail of the waiting list (the end that runs next) and ZREMs it; ng
  joins it to its line at this moment with ng's score (its rank kept with
  retryPosition=original) and arms the marker (see joinLineNow).

  ARGV[7] says which reservations it takes:
  - expired: only one that has run out by the Redis clock (a score at or
    before now, as both movers compare); a live one is refused, its worker
    may be running it.
  - live: any, for a holder the operator knows is gone (the confirmed
    "End reservation"). If the holder is in fact alive, the job runs twice;
    Redis cannot tell.

  It waits for the stock moving_lock to be free (see movingLockFree), so no
  stock mover moves it a second time.

  KEYS[1] <ch>.waiting       list (the stock line)
  KEYS[2] <ch>.prioritized   sorted set (ng's line)
  KEYS[3] <ch>.reserved      sorted set
  KEYS[4] <ch>.priorities    hash
  KEYS[5] <ch>.marker        sorted set
  KEYS[6] <ch>.seq           string
  KEYS[7] <ch>.ranks         hash
  KEYS[8] <ch>.moving_lock   string

  ARGV[1..5] the driver (yii2 or yii2-ng) and ng's placing settings, as
             ngSettingsFrom reads them (lua/includes/yii2-line.lua)
  ARGV[6] job id
  ARGV[7] expired or live

  Returns {1} when released, {0} when the id is not reserved (any more),
  or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time
-- @include yii2-line

local keys, wrongKey = lineKeysFrom(KEYS)
local ng = ngSettingsFrom(ARGV)
local id = ARGV[6]
local takesLive = ARGV[7] == 'live'

if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local expiry = tonumber(rcall('ZSCORE', keys.from, id))
if not expiry then return {0} end
local nowMs = serverNowMs()
if not takesLive and expiry > math.floor(nowMs / 1000) then return {ErrorCode.LiveReservation, keys.from} end
if not movingLockFree(keys.movingLock) then return movingLockHeld(keys.movingLock) end

joinLineNow(keys, ng, id, nowMs, ng and ng.retryKeepsPlace)
rcall('ZREM', keys.from, id)
return {1}
