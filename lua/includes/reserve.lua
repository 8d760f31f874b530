-- RESERVE's walk over one queue (the spec's "How a job is claimed"), shared
-- by reserve-2.lua and settle-and-reserve-6.lua so that reserving alone and
-- reserving right after settling follow one set of rules. Needs the
-- server-time, layout and promote includes before it; the caller has checked
-- the types of the delayed and levels keys.

-- One consumer name for the whole fleet: worker ids change on every restart
-- and would leave the group a dead consumer per deploy. Who holds a job is
-- in its hash's reserved_by.
local CONSUMER = 'shared'
-- Bounds the tombstones, stale and parked entries one call skips per level.
local MAX_SKIPPED = 10

-- Which branch handed a job out: reclaimed from a holder whose entry sat
-- idle past the timeout (XAUTOCLAIM), or read fresh from the stream
-- (XREADGROUP). Only the first kind says anything about a holder dying.
local RECLAIMED, FRESH = 'reclaimed', 'fresh'

local function dropEntry(stream, group, entry)
  rcall('XACK', stream, group, entry)
  rcall('XDEL', stream, entry)
end

-- Claims the job an entry names, or drops or parks the entry and answers nil.
local function takeEntry(stream, group, entry, entryFields, delayedKey, prefix, workerId, timeout, now, branch)
  local id
  for i = 1, #(entryFields or {}), 2 do
    if entryFields[i] == 'job' then id = entryFields[i + 1] end
  end
  local job = id and jobKey(prefix, id)
  -- The whole hash at once: a claim returns it, so reading the few fields the
  -- checks need first and the hash again afterwards would read it twice. A
  -- key of another type is no job, and is dropped like a tombstone.
  local hash = job and redis.pcall('HGETALL', job)
  if not hash or hash.err or #hash == 0 then
    dropEntry(stream, group, entry)
    return nil
  end
  local at = {}
  for i = 1, #hash, 2 do at[hash[i]] = i + 1 end
  local function field(name)
    local index = at[name]
    return index and hash[index]
  end

  -- Stale: the job points at another entry, or at an entry of this id in
  -- another stream (ids are unique per stream only).
  local ownEntry = field('entry')
  if ownEntry and (ownEntry ~= entry or ownStreamOf(prefix, field('queue'), field('priority')) ~= stream) then
    dropEntry(stream, group, entry)
    return nil
  end
  -- The holder's own deadline gets the last word on every entry, reclaimed
  -- or fresh (a parked job moved into its stream early, say), as the PHP
  -- RESERVE checks it: the job waits for that deadline. Parking is not an
  -- attempt.
  local deadline = tonumber(field('reserved_until')) or 0
  if deadline > now then
    rcall('ZADD', delayedKey, deadline, id)
    rcall('HSET', job, 'entry', '')
    dropEntry(stream, group, entry)
    return nil
  end

  local claim = {
    attempts = tostring((tonumber(field('attempts')) or 0) + 1),
    reserved_by = workerId,
    reserved_until = tostring(now + timeout),
    entry = entry,
  }
  rcall('HSET', job,
    'attempts', claim.attempts,
    'reserved_by', claim.reserved_by,
    'reserved_until', claim.reserved_until,
    'entry', claim.entry)
  -- The hash in hand, as HGETALL would now return it: HSET keeps a field's
  -- place and appends a new one.
  for _, name in ipairs({'attempts', 'reserved_by', 'reserved_until', 'entry'}) do
    if at[name] then
      hash[at[name]] = claim[name]
    else
      hash[#hash + 1] = name
      hash[#hash + 1] = claim[name]
    end
  end
  return {id, entry, hash, branch}
end

-- The pending entries `XAUTOCLAIM … 0-0 COUNT 1` looks at: Redis gives it ten
-- attempts per entry asked for, from the start of the pending list.
local RECLAIM_LOOKS_AT = 10

-- Whether any of these XPENDING entries has gone unacknowledged for idleMs:
-- exactly when XAUTOCLAIM over the same entries would claim one. XAUTOCLAIM
-- looks each of them up in the stream before it checks how long it has been
-- idle, so with fifty jobs held it costs a reserve more than the rest of its
-- work; XPENDING reads the idle times alone. What XAUTOCLAIM also does, drop
-- a pending entry whose stream entry was deleted by hand, happens once that
-- entry has been idle as long, when it is claimed.
local function anyIdleFor(pending, idleMs)
  for _, entry in ipairs(pending) do
    if entry[3] >= idleMs then return true end
  end
  return false
end

-- Promotes what is due, then walks the levels highest first, XAUTOCLAIM
-- (when an entry has been idle long enough) before XREADGROUP per level. Returns {id, entry id, {field, value, ...},
-- branch} for a claimed job, nil when the queue has nothing to hand out, or
-- {ErrorCode, key}.
local function reserveJob(delayedKey, levelsKey, prefix, queue, group, workerId, timeout, promoteLimit, now)
  local promotion = promoteDue(delayedKey, levelsKey, prefix, queue, now, promoteLimit)
  if promotion.wrongKey then return {ErrorCode.WrongKeyType, promotion.wrongKey} end

  for _, level in ipairs(rcall('ZREVRANGE', levelsKey, 0, -1)) do
    local stream = streamKey(prefix, queue, level)
    -- XPENDING is the first command on the stream and writes nothing to a
    -- key of another type, so its WRONGTYPE is the type check.
    local pending = redis.pcall('XPENDING', stream, group, '-', '+', RECLAIM_LOOKS_AT)
    if pending.err then
      if string.find(pending.err, 'WRONGTYPE', 1, true) then return {ErrorCode.WrongKeyType, stream} end
      if not string.find(pending.err, 'NOGROUP', 1, true) then return pending end
      rcall('XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM')
    elseif anyIdleFor(pending, timeout * 1000) then
      local claimed = rcall('XAUTOCLAIM', stream, group, CONSUMER, timeout * 1000, '0-0', 'COUNT', 1)
      if claimed[2][1] then
        local reply = takeEntry(stream, group, claimed[2][1][1], claimed[2][1][2], delayedKey, prefix, workerId, timeout, now, RECLAIMED)
        if reply then return reply end
      end
    end

    for _ = 1, MAX_SKIPPED do
      local read = rcall('XREADGROUP', 'GROUP', group, CONSUMER, 'COUNT', 1, 'STREAMS', stream, '>')
      if not read then break end
      local fresh = read[1][2][1]
      local reply = takeEntry(stream, group, fresh[1], fresh[2], delayedKey, prefix, workerId, timeout, now, FRESH)
      if reply then return reply end
    end
  end
  return nil
end
