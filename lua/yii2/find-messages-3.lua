--[[
  YII2 FIND MESSAGES: one bounded step of Find over a channel's messages.
  HSCANs `count` entries of `<ch>.messages` from `cursor`, tells each id's
  state from the indexes (reserved, else delayed, else ready: the line is a
  list on the stock driver and a sorted set on ng, and a message in neither
  index is waiting in it), and returns the ids in a wanted state with their
  message's first `limit` bytes. Read only. The messages are PHP-serialized
  or JSON, so the dashboard decodes and matches them as the job page reads
  them; the bytes are cut here so a 20 MB message crosses the network as
  `limit` bytes. Under a time range, only the reserved and delayed ids
  whose score (the second the reservation expires, or the job is due) is in
  it: a waiting message records no time (yii2 keeps none of a push).

  KEYS[1] <ch>.messages    hash, id -> "<ttr>;<serialized job>"
  KEYS[2] <ch>.reserved    sorted set
  KEYS[3] <ch>.delayed     sorted set

  ARGV[1] cursor           HSCAN cursor ('0' to start)
  ARGV[2] count
  ARGV[3] limit            bytes of each message returned at most
  ARGV[4] states           the states wanted, as ',ready,delayed,'
  ARGV[5] timeFrom         the range's start, Unix ms ('' for open)
  ARGV[6] timeUntil        the range's end, Unix ms, not in it ('' for open)

  Returns {next cursor ('0' once done), looked, id, state, length, head, ...},
  or {ErrorCode, key} when a key is of another type.
]]
local rcall = redis.call
-- @include layout
-- @include find

local messages, reserved, delayed = KEYS[1], KEYS[2], KEYS[3]
local cursor, count, limit, states = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local inTime = timeTestOf(ARGV[5], ARGV[6], 1000)

local wrongKey = firstWrongTypedKey({messages, 'hash', reserved, 'zset', delayed, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local scan = rcall('HSCAN', messages, cursor, 'COUNT', count)
local entries = scan[2]
local reply = {scan[1], #entries / 2}
for i = 1, #entries, 2 do
  local id, message = entries[i], entries[i + 1]
  local state = 'ready'
  local score = rcall('ZSCORE', reserved, id)
  if score then
    state = 'reserved'
  else
    score = rcall('ZSCORE', delayed, id)
    if score then state = 'delayed' end
  end
  local timely = not inTime or (score and inTime(score))
  if timely and string.find(states, ',' .. state .. ',', 1, true) then
    reply[#reply + 1] = id
    reply[#reply + 1] = state
    reply[#reply + 1] = #message
    reply[#reply + 1] = string.sub(message, 1, limit)
  end
end
return reply
