--[[
  MARKO READ DOCTOR PAGE: where each of a page of job ids is, in one
  snapshot, so that a pop moving a job between two reads cannot make it look
  lost or doubled. Read only. The page is read here (a range of one of the
  queue's three structures) or given (ids of job hashes a SCAN found).

  A given id in neither sorted set is looked for at both ends of the ready
  list, `searchLimit` entries from each: LPOS walks the list (about 150 ns an
  entry), so the middle of a long list is not searched; the caller knows the
  ids it saw there when it walked the list.

  KEYS[1] {prefix}queues:{name}            list, ready ids
  KEYS[2] {prefix}queues:{name}:delayed    sorted set
  KEYS[3] {prefix}queues:{name}:reserved   sorted set

  ARGV[1] prefix                           job hashes are {prefix}jobs:{id}
  ARGV[2] source                           'ready', 'delayed', 'reserved' (a range of that
                                           structure) or 'jobs' (the ids in ARGV[6..])
  ARGV[3] offset                           of the range (ignored for 'jobs')
  ARGV[4] count                            of the range (ignored for 'jobs')
  ARGV[5] searchLimit                      ready-list entries searched from each end
  ARGV[6..] ids                            for 'jobs'

  Returns {id, job hash type, in ready, in delayed, in reserved, ...}, each
  place 1 or 0; in ready is -1 when not searched (a delayed or reserved
  page, or a job found in a sorted set) or when the list is longer than both
  searched ends and the id was at neither. {ErrorCode, key} when a key has
  the wrong type.
]]
local rcall = redis.call
-- @include layout

local readyKey, delayedKey, reservedKey = KEYS[1], KEYS[2], KEYS[3]
local prefix, source = ARGV[1], ARGV[2]
local offset, count, searchLimit = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])

local wrongKey = firstWrongTypedKey({readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local ids
if source == 'ready' then
  ids = rcall('LRANGE', readyKey, offset, offset + count - 1)
elseif source == 'delayed' then
  ids = rcall('ZRANGE', delayedKey, offset, offset + count - 1)
elseif source == 'reserved' then
  ids = rcall('ZRANGE', reservedKey, offset, offset + count - 1)
else
  ids = {}
  for i = 6, #ARGV do ids[#ids + 1] = ARGV[i] end
end

local readyLength = rcall('LLEN', readyKey)
local function searchReady(id)
  -- The tail first: a job pushed after the caller walked the list is near one end, and which end push uses is not documented.
  if rcall('LPOS', readyKey, id, 'RANK', -1, 'MAXLEN', searchLimit) then return 1 end
  if rcall('LPOS', readyKey, id, 'MAXLEN', searchLimit) then return 1 end
  if readyLength > 2 * searchLimit then return -1 end
  return 0
end

local reply = {}
for _, id in ipairs(ids) do
  local delayed = rcall('ZSCORE', delayedKey, id) and 1 or 0
  local reserved = rcall('ZSCORE', reservedKey, id) and 1 or 0
  local ready = -1
  -- The ready walk reports a delayed or reserved id that is also ready, without a search per id.
  if source == 'ready' then
    ready = 1
  elseif source == 'jobs' and delayed + reserved == 0 then
    ready = searchReady(id)
  end
  reply[#reply + 1] = id
  reply[#reply + 1] = rcall('TYPE', prefix .. 'jobs:' .. id).ok
  reply[#reply + 1] = ready
  reply[#reply + 1] = delayed
  reply[#reply + 1] = reserved
end
return reply
