--[[
  READ ATTENTION: what the overview's "no worker" and "overdue delayed" marks
  are judged on, for a batch of queues. Reads only, and bounded by the
  caller's batch and LEVELS_READ: per queue its levels, two reads of its
  delayed set, and per level stream one XINFO GROUPS and one XRANGE of a
  single entry.

  The stream keys are derived from data (levels from q:{queue}:levels), so
  every key is built from the prefix, which is why the layout needs one
  server or a hash-tagged prefix.

  KEYS[1] queue:queues          not read: it routes the call, in a cluster, to
                                the node holding the prefix's slot

  ARGV[1] prefix
  ARGV[2] group                 the consumer group workers reserve through
  ARGV[3] levels read at most per queue
  ARGV[4..] queue names

  Returns one reply per queue, in order:
    {oldest ready, last delivered, due, oldest due}
        oldest ready      the id of the oldest stream entry the group has not
                          delivered yet, over every level; '' when none waits
        last delivered    the newest last-delivered-id of the group over
                          every level; '' when it delivered nothing
        due               how many delayed jobs are due (score <= now)
        oldest due        the score of the oldest due delayed job; '' when none
    {error}               the first reply Redis refused (a key of the wrong
                          type), as its error text
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local prefix, group, levelsRead = ARGV[1], ARGV[2], tonumber(ARGV[3])
local now = serverNow()

-- Stream ids compare by their two numbers, not as text ('9-0' < '10-0').
local function idParts(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms) or 0, tonumber(seq) or 0
end

local function isNewer(id, than)
  if than == '' then return true end
  local ams, aseq = idParts(id)
  local bms, bseq = idParts(than)
  return ams > bms or (ams == bms and aseq > bseq)
end

local function lastDeliveredOf(stream)
  local groups = redis.pcall('XINFO', 'GROUPS', stream)
  -- No such key (a level pushed to and drained) or not a stream: nothing delivered here.
  if groups.err then return nil end
  for _, info in ipairs(groups) do
    local fields = {}
    for f = 1, #info, 2 do fields[info[f]] = info[f + 1] end
    if fields['name'] == group then return fields['last-delivered-id'] end
  end
  return nil
end

local function attentionOf(queue)
  local levels = redis.pcall('ZRANGE', levelsKeyOf(prefix, queue), 0, levelsRead - 1)
  if levels.err then return {levels.err} end
  local delayedKey = prefix .. 'q:' .. queue .. ':delayed'
  local due = redis.pcall('ZCOUNT', delayedKey, '-inf', now)
  if type(due) == 'table' then return {due.err} end
  local oldestDue = ''
  if due > 0 then
    local first = rcall('ZRANGEBYSCORE', delayedKey, '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1)
    oldestDue = first[2] or ''
  end
  local oldestReady, lastDelivered = '', ''
  for _, level in ipairs(levels) do
    local stream = streamKey(prefix, queue, level)
    local delivered = lastDeliveredOf(stream)
    local start = '-'
    if delivered and delivered ~= '0-0' then
      start = '(' .. delivered
      if isNewer(delivered, lastDelivered) then lastDelivered = delivered end
    end
    local waiting = redis.pcall('XRANGE', stream, start, '+', 'COUNT', 1)
    if waiting.err then
      if string.sub(waiting.err, 1, 9) == 'WRONGTYPE' then return {waiting.err} end
    elseif waiting[1] then
      local id = waiting[1][1]
      if oldestReady == '' or isNewer(oldestReady, id) then oldestReady = id end
    end
  end
  return {oldestReady, lastDelivered, due, oldestDue}
end

local replies = {}
for i = 4, #ARGV do replies[#replies + 1] = attentionOf(ARGV[i]) end
return replies
