--[[
  YII2 RAISE MESSAGE ID: sets the id counter to the highest id found in the
  channel when it is below it: otherwise the next pushes get ids that are
  taken, and a push HSETs over a live message. Never lowers it: an old
  worker acknowledging job #k would delete a new job given the same id.

  KEYS[1] <ch>.message_id   string, the id counter

  ARGV[1] the highest id in any key of the channel

  Returns {1} when raised, {0} when it is already at or above it, or
  {ErrorCode, key} when the key is no counter.
]]
local rcall = redis.call
-- @include layout

local counterKey = KEYS[1]
local highest = ARGV[1]

local wrongKey = firstWrongTypedKey({counterKey, 'string'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
local current = rcall('GET', counterKey)
if current and not string.match(current, '^%d+$') then return {ErrorCode.WrongKeyType, counterKey} end
if current and tonumber(current) >= tonumber(highest) then return {0} end
rcall('SET', counterKey, highest)
return {1}
