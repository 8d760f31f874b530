--[[
  READ RESERVATION JOBS: joins a batch of pending entries (XPENDING gives
  only their ids) to the jobs they name, for the reservations page: the job
  id in each entry and the requested fields of its hash. Reads only, and
  bounded by the caller's batch: one XRANGE of one entry and one HMGET per
  entry.

  The stream and job keys are derived from data (queue names from
  queue:queues, levels from q:{queue}:levels, ids from the entries), so they
  are built from the prefix, which is why the layout needs one server or a
  hash-tagged prefix.

  KEYS[1] queue:queues          not read: it routes the call, in a cluster, to
                                the node holding the prefix's slot

  ARGV[1] prefix                for the stream and job keys
  ARGV[2] n                     how many fields follow
  ARGV[3..n+2] fields           to read from each job hash
  ARGV[n+3..] queue, level, entry id, …   one triple per pending entry

  Returns one reply per entry, in order:
    {}                          the entry names no job or is gone from its stream
    {job id, '', value, …}      the fields in order, nil where the hash has
                                none (all nil when the hash is gone)
    {job id, error}             j:{id} is not a hash; the error says why
]]
local rcall = redis.call
-- @include layout

local prefix, fieldCount = ARGV[1], tonumber(ARGV[2])
local fields = {}
for i = 1, fieldCount do fields[i] = ARGV[2 + i] end

local replies = {}
for i = 3 + fieldCount, #ARGV, 3 do
  local stream, entry = streamKey(prefix, ARGV[i], ARGV[i + 1]), ARGV[i + 2]
  -- A stream key of another type is reported by the XPENDING that found the entry.
  local found = redis.pcall('XRANGE', stream, entry, entry, 'COUNT', 1)
  local id = nil
  if found[1] then
    local entryFields = found[1][2]
    for f = 1, #entryFields, 2 do
      if entryFields[f] == 'job' then id = entryFields[f + 1] end
    end
  end
  if id == nil then
    replies[#replies + 1] = {}
  else
    local values = redis.pcall('HMGET', jobKey(prefix, id), unpack(fields))
    if values.err then
      replies[#replies + 1] = {id, values.err}
    else
      table.insert(values, 1, '')
      table.insert(values, 1, id)
      replies[#replies + 1] = values
    end
  end
end
return replies
