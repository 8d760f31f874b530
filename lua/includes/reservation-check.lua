-- Repairs of a reservation act on what an operator saw a moment ago; a
-- worker may have completed, released, failed or reclaimed the job since.
-- These checks run inside the repair script, so nothing can slip in between
-- the check and the write.

-- Not acknowledged yet: the entry is still in the group's pending list. A
-- missing group (NOGROUP) or stream means nothing is pending there.
local function stillPending(stream, group, entry)
  if rcall('TYPE', stream).ok ~= 'stream' then return false end
  local pending = redis.pcall('XPENDING', stream, group, entry, entry, 1)
  return type(pending) == 'table' and pending.err == nil and pending[1] ~= nil
end

-- The hash still says what the operator saw: the same entry in this stream
-- (the job's own: an entry id alone may name an entry of another level's
-- stream), holder, deadline and attempt. A reclaim rewrites
-- reserved_by/reserved_until and counts an attempt; parking, releasing,
-- failing and requeueing all change entry; completing deletes the hash.
local function claimUnchanged(jobHashKey, stream, prefix, entry, reservedBy, reservedUntil, attempts)
  if reservedBy == '' or rcall('TYPE', jobHashKey).ok ~= 'hash' then return false end
  local current = rcall('HMGET', jobHashKey, 'entry', 'reserved_by', 'reserved_until', 'attempts', 'queue', 'priority')
  return current[1] == entry and current[2] == reservedBy and current[3] == reservedUntil and current[4] == attempts
    and ownStreamOf(prefix, current[5], current[6]) == stream
end
