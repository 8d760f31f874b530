-- How a worker settles the job it holds: complete, release or fail. Shared
-- by complete-3.lua, release-3.lua, fail-4.lua and settle-and-reserve-6.lua,
-- so that settling alone and settling before the next reserve follow one set
-- of rules. Needs the server-time, layout and fail-job includes before it;
-- the caller has checked the types of every key it passes.

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
-- Returns {1} when applied, {0} when the claim had been lost.
local function settleHeldJob(how, stream, delayedKey, failedKey, job, prefix, group, id, entry, reservedBy, reservedUntil, delaySeconds, message)
  local current = rcall('HMGET', job, 'reserved_by', 'reserved_until', 'entry', 'queue', 'priority')
  if current[1] ~= reservedBy or current[2] ~= reservedUntil then
    if current[3] ~= entry or ownStreamOf(prefix, current[4], current[5]) ~= stream then
      ackAndDelete(stream, group, entry)
    end
    return {0}
  end

  ackAndDelete(stream, group, entry)
  if how == 'release' then
    local availableAt = serverNow() + delaySeconds
    rcall('ZADD', delayedKey, availableAt, id)
    rcall('HSET', job,
      'available_at', availableAt,
      'reserved_until', 0,
      'reserved_by', '',
      'entry', '',
      'last_error', truncateError(message))
  elseif how == 'fail' then
    rcall('ZREM', delayedKey, id)
    markFailed(prefix, failedKey, job, id, message, serverNow())
  else
    rcall('ZREM', delayedKey, id)
    freeUniqueKey(prefix, job, id)
    rcall('DEL', job)
  end
  return {1}
end
