--[[
  YII2 DOCTOR READ MESSAGES: one HSCAN step over a channel's messages, read
  only, answering per message only its id and its TTR prefix: a message may
  be 20 MB, and the doctor needs nothing else of it.

  KEYS[1] <ch>.messages   hash

  ARGV[1] HSCAN cursor ('0' to start)
  ARGV[2] COUNT hint (at most 1000)

  Returns {next cursor, {id, ttr}, ...} where ttr is the message's
  `<ttr>;` prefix as the drivers parse it (digits, not starting with 0), or
  '' when it has none; or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout

local messagesKey = KEYS[1]

local wrongKey = firstWrongTypedKey({messagesKey, 'hash'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
local scanned = rcall('HSCAN', messagesKey, ARGV[1], 'COUNT', math.min(1000, tonumber(ARGV[2]) or 1000))
local reply = {scanned[1]}
local entries = scanned[2]
for i = 1, #entries, 2 do
  -- Only the first 21 bytes are looked at: a TTR longer than that is no integer PHP wrote.
  reply[#reply + 1] = {entries[i], string.match(string.sub(entries[i + 1], 1, 21), '^([1-9]%d*);') or ''}
end
return reply
