--[[
  READ RESERVATION JOBS: joins a batch of pending entries (XPENDING gives
  only their ids) to the jobs they name, for the reservations page: the job
  id in each entry and the requested fields of its hash. Reads only, and
  bounded by the caller's batch: an XRANGE per stream of at most its entries
  in the batch, one of a single entry for each it missed, and one HMGET per
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

local function jobIdIn(entryFields)
  for f = 1, #entryFields, 2 do
    if entryFields[f] == 'job' then return entryFields[f + 1] end
  end
  return false
end

local function jobReply(id)
  if not id then return {} end
  local values = redis.pcall('HMGET', jobKey(prefix, id), unpack(fields))
  if values.err then return {id, values.err} end
  table.insert(values, 1, '')
  table.insert(values, 1, id)
  return values
end

-- The entries come grouped by stream, each group in XPENDING's order
-- (ascending ids). Completed entries are deleted from their stream, so a
-- group's entries usually lie side by side: one XRANGE from its first to its
-- last, COUNT its size, finds them all, where a lookup each would seek the
-- stream again for every entry. An entry that range did not return (another
-- lies between, or it is gone) is looked up alone. A stream key of another
-- type is reported by the XPENDING that found the entries; here it reads as
-- entries that are gone.
local replies = {}
local i = 3 + fieldCount
while i <= #ARGV do
  local queue, level = ARGV[i], ARGV[i + 1]
  local last = i
  while ARGV[last + 3] == queue and ARGV[last + 4] == level do last = last + 3 end
  local stream = streamKey(prefix, queue, level)
  local idOf = {}
  local range = redis.pcall('XRANGE', stream, ARGV[i + 2], ARGV[last + 2], 'COUNT', (last - i) / 3 + 1)
  if not range.err then
    for _, found in ipairs(range) do idOf[found[1]] = jobIdIn(found[2]) end
  end
  for j = i, last, 3 do
    local id = idOf[ARGV[j + 2]]
    if id == nil then
      local found = redis.pcall('XRANGE', stream, ARGV[j + 2], ARGV[j + 2], 'COUNT', 1)
      id = not found.err and found[1] ~= nil and jobIdIn(found[1][2])
    end
    replies[#replies + 1] = jobReply(id)
  end
  i = last + 3
end
return replies
