-- Fails a job as fail() does, once the caller has taken it out of its
-- stream (and its delayed set): frees its unique key, clears the claim and
-- the entry, records error and failed_at, and joins the failed set scored by
-- the unix second. Needs the server-time and layout includes before it.
local function markFailed(prefix, failedKey, job, id, message, now)
  freeUniqueKey(prefix, rcall('HGET', job, 'unique_key'), id)
  rcall('HSET', job,
    'unique_key', '',
    'reserved_until', 0,
    'reserved_by', '',
    'entry', '',
    'error', truncateError(message),
    'failed_at', formatUtc(now))
  rcall('ZADD', failedKey, now, id)
end
