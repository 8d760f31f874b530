--[[
  READ QUEUE FIGURES: what the overview shows and judges of a batch of
  queues, in one pass over their keys: stats()'s counts (as
  read-counts-1.lua counts them) and what the "no worker", "stuck" and
  "overdue delayed" marks are judged on. Reads only, bounded by the caller's
  batch and ARGV[5]: per queue its levels and two or three reads of its
  delayed set; per level stream its length, its pending summary, one XRANGE
  of a single entry and at most ARGV[5] pending entries held longer than
  ARGV[4] ms (the candidates for "stuck"). Completed entries are deleted from
  their stream, so the oldest entry after the newest pending one is the
  oldest the group has not delivered. Only for a queue whose oldest waiting
  job is older than ARGV[3] (the "no worker" threshold) are each stream's
  XINFO GROUPS (the group's last-delivered-id) and its newest pending entry's
  idle time read: healthy queues never pay for them. The counts and the
  marks read the same keys, so one pass serves both.

  The stream keys are derived from data (levels from q:{queue}:levels), so
  every key is built from the prefix, which is why the layout needs one
  server or a hash-tagged prefix.

  KEYS[1] queue:queues          not read: it routes the call, in a cluster, to
                                the node holding the prefix's slot

  ARGV[1] prefix
  ARGV[2] group                 the consumer group workers reserve through
  ARGV[3] seconds a job must have waited before the last delivery is read
  ARGV[4] ms an entry must have been held to be a candidate for "stuck"
  ARGV[5] candidates read at most per stream
  ARGV[6..] queue names

  Returns one reply per queue, in order:
    {pending, delayed, reserved, oldest ready, last delivered, due, oldest due, newest held, held long}
        pending           stream entries nobody holds, and due delayed jobs
        delayed           delayed jobs not due yet
        reserved          entries in the group's pending lists
        oldest ready      the id of the oldest stream entry the group has not
                          delivered yet, over every level; '' when none waits
        last delivered    the newest last-delivered-id of the group over
                          every level; '' when it delivered nothing, or
                          when nothing waited long enough to read it
        due               how many delayed jobs are due (score <= now)
        oldest due        the score of the oldest due delayed job; '' when none
        newest held       when the newest entry still pending was delivered,
                          server ms; '' when none is pending or it was not read
        held long         {level, entry id, idle ms, deliveries, …}: pending
                          entries held at least ARGV[4] ms, oldest first per
                          level; a claim that long past its deadline is
                          among them (its idle time is its timeout and more)
    {error}               the first reply Redis refused (a key of the wrong
                          type), as its error text
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local prefix, group, lookAfter = ARGV[1], ARGV[2], tonumber(ARGV[3])
local heldLongMs, heldLongRead = tonumber(ARGV[4]), tonumber(ARGV[5])
local now = serverNow()
local clock = rcall('TIME')
local nowMs = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)

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

local function figuresOf(queue)
  local levels = redis.pcall('ZRANGE', levelsKeyOf(prefix, queue), 0, -1)
  if levels.err then return {levels.err} end
  local delayedKey = prefix .. 'q:' .. queue .. ':delayed'
  local due = redis.pcall('ZCOUNT', delayedKey, '-inf', now)
  if type(due) == 'table' then return {due.err} end
  local delayed = rcall('ZCARD', delayedKey)
  local oldestDue = ''
  if due > 0 then
    local first = rcall('ZRANGEBYSCORE', delayedKey, '-inf', now, 'WITHSCORES', 'LIMIT', 0, 1)
    oldestDue = first[2] or ''
  end
  local oldestReady, lastDelivered, newestHeld = '', '', ''
  local pending, reserved = due, 0
  local streams, heldLong = {}, {}
  for _, level in ipairs(levels) do
    local stream = streamKey(prefix, queue, level)
    local length = redis.pcall('XLEN', stream)
    if type(length) == 'table' then return {length.err} end
    local summary = redis.pcall('XPENDING', stream, group)
    local start = '-'
    local newestPending = false
    local held = 0
    if summary.err then
      -- NOGROUP: never reserved from, or no such key; every entry waits.
      if string.sub(summary.err, 1, 7) ~= 'NOGROUP' then return {summary.err} end
    elseif summary[3] then
      held = summary[1]
      start = '(' .. summary[3]
      newestPending = summary[3]
      for _, entry in ipairs(rcall('XPENDING', stream, group, 'IDLE', heldLongMs, '-', '+', heldLongRead)) do
        heldLong[#heldLong + 1] = level
        heldLong[#heldLong + 1] = entry[1]
        heldLong[#heldLong + 1] = entry[3]
        heldLong[#heldLong + 1] = entry[4]
      end
    end
    pending = pending + math.max(0, length - held)
    reserved = reserved + held
    streams[#streams + 1] = {stream, newestPending}
    local waiting = rcall('XRANGE', stream, start, '+', 'COUNT', 1)
    if waiting[1] then
      local id = waiting[1][1]
      if oldestReady == '' or isNewer(oldestReady, id) then oldestReady = id end
    end
  end
  local oldestMs = nil
  if oldestReady ~= '' then oldestMs = idParts(oldestReady) end
  if oldestDue ~= '' then
    local dueMs = tonumber(oldestDue) * 1000
    if oldestMs == nil or dueMs < oldestMs then oldestMs = dueMs end
  end
  if oldestMs ~= nil and nowMs - oldestMs >= lookAfter * 1000 then
    for _, read in ipairs(streams) do
      local stream, newestPending = read[1], read[2]
      local delivered = lastDeliveredOf(stream)
      if delivered and delivered ~= '0-0' and isNewer(delivered, lastDelivered) then lastDelivered = delivered end
      if newestPending then
        -- Entries are delivered in id order, so the newest pending one was handed out last of those still held.
        local entry = rcall('XPENDING', stream, group, newestPending, newestPending, 1)[1]
        if entry then
          local heldMs = nowMs - entry[3]
          if newestHeld == '' or heldMs > newestHeld then newestHeld = heldMs end
        end
      end
    end
  end
  return {pending, delayed - due, reserved, oldestReady, lastDelivered, due, oldestDue, newestHeld, heldLong}
end

local replies = {}
for i = 6, #ARGV do replies[#replies + 1] = figuresOf(ARGV[i]) end
return replies
