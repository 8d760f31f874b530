-- How a worker settles the job it holds: complete, release or fail. Shared
-- by complete-3.lua, release-3.lua, fail-4.lua and settle-and-reserve-6.lua,
-- so that settling alone and settling before the next reserve follow one set
-- of rules. Needs the server-time, layout and fail-job includes before it.

-- Acknowledges and deletes the caller's entry, or answers false when
-- `stream` is a key of another type. XACK is the first command a settle
-- sends to the stream, and it writes nothing to such a key, so its WRONGTYPE
-- is the type check; on a missing stream XACK answers NOGROUP and XDEL
-- deletes nothing.
local function dropOwnEntry(stream, group, entry)
  if entry == '' then return true end
  local acked = redis.pcall('XACK', stream, group, entry)
  if type(acked) == 'table' and acked.err and string.find(acked.err, 'WRONGTYPE', 1, true) then return false end
  rcall('XDEL', stream, entry)
  return true
end

-- A claim is known by reserved_by and reserved_until, and reserved_until
-- counts whole seconds: after an operator released or failed (and retried) a
-- live reservation, a worker of the same id (the slots of one process share
-- it) can claim the job again within the same second, and the two claims
-- look the same. The new one has its own entry, delivered to the group; a
-- job parked and promoted meanwhile has a new entry too, but no worker has
-- been handed it yet. So the caller's claim is gone when the job's entry is
-- another one that is pending.
local function claimedAgain(stream, group, entry, currentEntry, ownStream)
  if not currentEntry or currentEntry == '' or (currentEntry == entry and ownStream == stream) then return false end
  local pending = redis.pcall('XPENDING', ownStream, group, currentEntry, currentEntry, 1)
  return type(pending) == 'table' and pending.err == nil and pending[1] ~= nil
end

-- Settles job `id` as `how` ('complete', 'release' or 'fail'):
--   complete  the entry is acknowledged and deleted, the unique key freed and
--             the hash deleted;
--   release   the entry goes, the job waits in the delayed set `delaySeconds`
--             from now with its claim cleared and `message` as last_error;
--             attempts stays as the claim counted it;
--   fail      the entry goes and the job joins the failed set (fail-job.lua).
-- Applied only while the caller still holds the claim: once the job was
-- reclaimed, released, failed or requeued by somebody else, reserved_by and
-- reserved_until no longer match what the holder was handed. A holder whose
-- job was parked meanwhile still holds it (its id then leaves the delayed
-- set). A holder that lost its claim acknowledges its own entry only when
-- the job has moved on from it: a reclaimed entry keeps its id, in its
-- stream, and now belongs to the worker that reclaimed it.
--
-- The caller has checked the delayed key (and, to fail, the failed key); the
-- stream's and the hash's types are checked by the first command each gets,
-- before anything is written, instead of a TYPE call apiece.
-- Returns {1} when applied, {0} when the claim had been lost, or
-- {ErrorCode, key}.
local function settleHeldJob(how, stream, delayedKey, failedKey, job, prefix, group, id, entry, reservedBy, reservedUntil, delaySeconds, message)
  local current = redis.pcall('HMGET', job, 'reserved_by', 'reserved_until', 'entry', 'queue', 'priority', 'unique_key')
  if current.err then return {ErrorCode.WrongKeyType, job} end
  if current[1] ~= reservedBy or current[2] ~= reservedUntil or claimedAgain(stream, group, entry, current[3], ownStreamOf(prefix, current[4], current[5])) then
    local movedOn = current[3] ~= entry or ownStreamOf(prefix, current[4], current[5]) ~= stream
    if movedOn and not dropOwnEntry(stream, group, entry) then return {ErrorCode.WrongKeyType, stream} end
    return {0}
  end

  if not dropOwnEntry(stream, group, entry) then return {ErrorCode.WrongKeyType, stream} end
  -- Parking empties entry and puts the id in the delayed set; a job still in
  -- its stream is in no delayed set, so there is nothing to remove.
  local parked = current[3] ~= entry
  if how == 'release' then
    local availableAt = serverNow() + delaySeconds
    rcall('ZADD', delayedKey, availableAt, id)
    rcall('HSET', job,
      'available_at', availableAt,
      'reserved_until', 0,
      'reserved_by', '',
      'entry', '',
      'last_error', truncateError(message))
    return {1}
  end
  if parked then rcall('ZREM', delayedKey, id) end
  if how == 'fail' then
    markFailed(prefix, failedKey, job, id, message, serverNow())
  else
    freeUniqueKey(prefix, current[6], id)
    rcall('DEL', job)
  end
  return {1}
end
