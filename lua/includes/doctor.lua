-- Shared by the doctor's repair scripts (lua/doctor-*.lua). Each repair
-- re-checks the broken condition with these before it writes, so that it
-- does nothing when a worker fixed or changed the job meanwhile.

-- True when `entry` is in `stream` and carries job `id`. `stream` must be the
-- job's own (jobStream): an entry id names an entry only within one stream.
local function entryHoldsJob(stream, entry, id)
  if entry == nil or entry == '' or rcall('TYPE', stream).ok ~= 'stream' then return false end
  -- An entry field that is not a stream id at all names no entry either.
  local range = redis.pcall('XRANGE', stream, entry, entry, 'COUNT', 1)
  if range.err then return false end
  local found = range[1]
  if not found then return false end
  local fields = found[2]
  for i = 1, #fields, 2 do
    if fields[i] == 'job' then return fields[i + 1] == id end
  end
  return false
end

-- True when a worker was handed `entry` and has not acknowledged it: the job
-- is reserved, and settling it is its holder's business. A missing group
-- means nobody was handed anything.
local function entryDelivered(stream, group, entry)
  local pending = redis.pcall('XPENDING', stream, group, entry, entry, 1)
  if pending.err then return false end
  return pending[1] ~= nil
end

-- The stream a job's entry lives in: its queue's stream at its priority.
local function jobStream(prefix, job)
  local fields = rcall('HMGET', job, 'queue', 'priority')
  return streamKey(prefix, fields[1] or '', levelOf(fields[2]))
end
