--[[
  MARKO READ DOCTOR PAGE: where each of a page of job ids is, in one
  snapshot, so that a pop moving a job between two reads cannot make it look
  lost or doubled. Read only. The page is read here (a range of one of the
  queue's three structures) or given (ids of job hashes a SCAN found).

  KEYS[1] {prefix}queues:{name}            list, ready ids
  KEYS[2] {prefix}queues:{name}:delayed    sorted set
  KEYS[3] {prefix}queues:{name}:reserved   sorted set

  ARGV[1] prefix                           job hashes are {prefix}jobs:{id}
  ARGV[2] source                           'ready', 'delayed', 'reserved' (a range of that
                                           structure) or 'jobs' (the ids in ARGV[5..])
  ARGV[3] offset                           of the range (ignored for 'jobs')
  ARGV[4] count                            of the range (ignored for 'jobs')
  ARGV[5] list search limit                ready-list entries LPOS looks through at most
  ARGV[6..] ids                            for 'jobs'

  Returns {id, job hash type, in ready, in delayed, in reserved, ...}: 1 or
  0; for the ready list -1 when not searched (a delayed or reserved page) or
  when it is longer than the search limit and the id was not among its first
  entries. {ErrorCode, key} when a key has
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
local function inReady(id)
  -- A page of the ready list is in it. Only job hashes' ids are searched
  -- for: the walk of the ready list itself finds a delayed or reserved id
  -- that is also ready, without searching the list once per id.
  if source == 'ready' then return 1 end
  if source ~= 'jobs' then return -1 end
  if rcall('LPOS', readyKey, id, 'MAXLEN', searchLimit) then return 1 end
  if readyLength > searchLimit then return -1 end
  return 0
end

local reply = {}
for _, id in ipairs(ids) do
  local delayed = rcall('ZSCORE', delayedKey, id) and 1 or 0
  local reserved = rcall('ZSCORE', reservedKey, id) and 1 or 0
  reply[#reply + 1] = id
  reply[#reply + 1] = rcall('TYPE', prefix .. 'jobs:' .. id).ok
  -- A job hash found delayed or reserved is not searched for in the ready
  -- list: the ready walk reports it if it is there too (-1: not searched).
  if source == 'jobs' and delayed + reserved > 0 then
    reply[#reply + 1] = -1
  else
    reply[#reply + 1] = inReady(id)
  end
  reply[#reply + 1] = delayed
  reply[#reply + 1] = reserved
end
return reply
