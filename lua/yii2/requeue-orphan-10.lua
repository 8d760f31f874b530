--[[
  YII2 REQUEUE ORPHAN: a message that no index holds (a stock push or reserve
  that died between its commands, an ng reserve that failed on a message
  without its TTR prefix, or a hand edit) is put into line now, where the
  driver's own mover puts a job that came due this second (see joinLineNow),
  so it runs by the driver's rules under either driver (spec §4.6, which
  scores it due instead; see joinLineNow for why that can lose it).

  Re-checks that the message still exists and that the id is in none of the
  four indexes. LPOS walks the stock list (O(N)): ids have no index into it.
  It waits for the stock moving_lock to be free (see movingLockFree).

  KEYS[1]  <ch>.messages      hash
  KEYS[2]  <ch>.waiting       list (the stock line)
  KEYS[3]  <ch>.prioritized   sorted set (ng's line)
  KEYS[4]  <ch>.delayed       sorted set
  KEYS[5]  <ch>.reserved      sorted set
  KEYS[6]  <ch>.priorities    hash
  KEYS[7]  <ch>.marker        sorted set
  KEYS[8]  <ch>.seq           string
  KEYS[9]  <ch>.ranks         hash
  KEYS[10] <ch>.moving_lock   string

  ARGV[1..5] the driver (yii2 or yii2-ng) and ng's placing settings, as
             ngSettingsFrom reads them (lua/includes/yii2-line.lua)
  ARGV[6] job id

  Returns {1} when requeued, {0} when it is no orphan (any more), or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time
-- @include yii2-line

local keys = {
  messages = KEYS[1], waiting = KEYS[2], prioritized = KEYS[3], delayed = KEYS[4], reserved = KEYS[5],
  priorities = KEYS[6], marker = KEYS[7], seq = KEYS[8], ranks = KEYS[9], movingLock = KEYS[10],
}
local ng = ngSettingsFrom(ARGV)
local id = ARGV[6]

local wrongKey = firstWrongTypedKey({
  keys.messages, 'hash', keys.waiting, 'list', keys.prioritized, 'zset', keys.delayed, 'zset', keys.reserved, 'zset',
  keys.priorities, 'hash', keys.marker, 'zset', keys.seq, 'string', keys.ranks, 'hash', keys.movingLock, 'string',
})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if rcall('HEXISTS', keys.messages, id) == 0 then return {0} end
if rcall('ZSCORE', keys.prioritized, id) or rcall('ZSCORE', keys.delayed, id) or rcall('ZSCORE', keys.reserved, id)
  or rcall('LPOS', keys.waiting, id) then
  return {0}
end
if not movingLockFree(keys.movingLock) then return movingLockHeld(keys.movingLock) end

joinLineNow(keys, ng, id, serverNow() * 1000, ng and ng.delayKeepsPlace)
return {1}
