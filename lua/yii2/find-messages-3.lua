--[[
  YII2 FIND MESSAGES: one bounded step of Find over a channel's messages.
  HSCANs `count` entries of `<ch>.messages` from `cursor`, tells each id's
  state from the indexes (reserved, else delayed, else ready: the line is a
  list on the stock driver and a sorted set on ng, and a message in neither
  index is waiting in it), and returns the ids in a wanted state whose
  message could match, with their message's first `limit` bytes. Read
  only. The messages are PHP-serialized or JSON, so the dashboard decodes
  and matches them as the job page reads them; the bytes are cut here so a
  20 MB message crosses the network as `limit` bytes. Under a time range,
  only the reserved and delayed ids whose score (the second the reservation
  expires, or the job is due) is in it: a waiting message records no time
  (yii2 keeps none of a push).

  Which messages could match is a superset of what the decoding matches,
  so that a pass does not ship every message to be decoded: the id equal
  to the text; or, in the first `limit` bytes, the text itself (a PHP
  serialization keeps its strings' bytes as they are, and its class and
  data are read from those bytes); or, for a message that may be JSON (a
  `{` first, or first after the TTR prefix), which the dashboard parses and
  writes again (escapes, spaces and numbers change), the caller's `anchor`:
  a piece of the text that any JSON spelling of it holds as it is ('' when
  the text has none: every JSON message is sent). The states and the range
  are looked up only for the messages that could match, one ZMSCORE a set
  for them all.

  KEYS[1] <ch>.messages    hash, id -> "<ttr>;<serialized job>"
  KEYS[2] <ch>.reserved    sorted set
  KEYS[3] <ch>.delayed     sorted set

  ARGV[1] cursor           HSCAN cursor ('0' to start)
  ARGV[2] count
  ARGV[3] limit            bytes of each message returned (and matched) at most
  ARGV[4] states           the states wanted, as ',ready,delayed,'
  ARGV[5] timeFrom         the range's start, Unix ms ('' for open)
  ARGV[6] timeUntil        the range's end, Unix ms, not in it ('' for open)
  ARGV[7] id               an id equal to this could match ('' for none)
  ARGV[8] every            '1': every message could match (the text may
                           read otherwise than its bytes); '0': as above
  ARGV[9] text             the text, as a message's bytes hold it ('' for
                           none: only the id can match)
  ARGV[10] anchor          a piece of the text every JSON spelling holds
                           ('' for none)
  ARGV[11] ignoreCase      '1': ASCII letters of the text and the anchor
                           match in either case; '0': byte for byte

  Returns {next cursor ('0' once done), looked, bytes, id, state, length,
  head, ...}, where bytes is the messages' bytes HSCAN read (the caller
  sizes its next chunk by them),
  or {ErrorCode, key} when a key is of another type.
]]
local rcall = redis.call
-- @include layout
-- @include find

local messages, reserved, delayed = KEYS[1], KEYS[2], KEYS[3]
local cursor, count, limit, states = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local inTime = timeTestOf(ARGV[5], ARGV[6], 1000)
local wantedId, every, text, anchor, ignoreCase = ARGV[7], ARGV[8] == '1', ARGV[9], ARGV[10], ARGV[11] == '1'
local textMatcher = textMatchers({text}, ignoreCase)
local anchorMatcher = anchor ~= '' and textMatchers({anchor}, ignoreCase) or nil

local wrongKey = firstWrongTypedKey({messages, 'hash', reserved, 'zset', delayed, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

-- Whether the dashboard may read `head` as JSON: it sniffs a `{` after the TTR prefix (a few digits and `;`), or first.
local function mayBeJson(head)
  return string.byte(head, 1) == 123 or string.find(string.sub(head, 1, 22), '^%d+;{') ~= nil
end

local function couldMatch(id, head)
  if every or id == wantedId then return true end
  if text == '' then return false end
  if firstMatchIn(head, textMatcher) then return true end
  if not mayBeJson(head) then return false end
  return anchorMatcher == nil or firstMatchIn(head, anchorMatcher) ~= nil
end

-- Each of `ids`' scores in `set` (false where it has none), ZMSCORE a
-- thousand ids at a time: one call for a chunk's candidates rather than one
-- each, and no more than unpack takes at once.
local function scoresIn(set, ids)
  local scores = {}
  for from = 1, #ids, 1000 do
    local batch = rcall('ZMSCORE', set, unpack(ids, from, math.min(#ids, from + 999)))
    for i = 1, #batch do scores[from + i - 1] = batch[i] end
  end
  return scores
end

local scan = rcall('HSCAN', messages, cursor, 'COUNT', count)
local entries = scan[2]
local reply = {scan[1], #entries / 2, 0}
-- The messages that could match: their ids, and their heads cut to `limit`.
local ids, heads, lengths = {}, {}, {}
for i = 1, #entries, 2 do
  local id, message = entries[i], entries[i + 1]
  reply[3] = reply[3] + #message
  local head = #message > limit and string.sub(message, 1, limit) or message
  if couldMatch(id, head) then
    ids[#ids + 1] = id
    heads[#ids] = head
    lengths[#ids] = #message
  end
end
if #ids == 0 then return reply end

local reservedScores, delayedScores = scoresIn(reserved, ids), scoresIn(delayed, ids)
for n, id in ipairs(ids) do
  local state, score = 'ready', reservedScores[n]
  if score then
    state = 'reserved'
  else
    score = delayedScores[n]
    if score then state = 'delayed' end
  end
  local timely = not inTime or (score and inTime(score))
  if timely and string.find(states, ',' .. state .. ',', 1, true) then
    reply[#reply + 1] = id
    reply[#reply + 1] = state
    reply[#reply + 1] = lengths[n]
    reply[#reply + 1] = heads[n]
  end
end
return reply
