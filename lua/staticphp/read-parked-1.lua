--[[
  READ PARKED: the jobs a reclaim parked in the delayed sets until their
  holder's deadline, for the reservations page. Among each queue's delayed
  ids not yet due, soonest first and at most `perQueue` of them, those whose
  hash names a holder (`reserved_by`) and points at no entry (`entry` empty):
  a job pushed with a delay, or released, names no holder. Reads only,
  bounded by the caller: at most `perQueue` ids per queue named, one HMGET
  each, and only the parked ones come back (most delayed jobs are not).

  The delayed set and job keys are derived from the names passed, so they
  are built from the prefix, which is why the layout needs one server or a
  hash-tagged prefix.

  KEYS[1] queue:queues          not read: it routes the call, in a cluster, to
                                the node holding the prefix's slot

  ARGV[1] prefix                for the delayed set and job keys
  ARGV[2] now                   unix seconds: ids due by then are not parked
  ARGV[3] perQueue              delayed ids looked at per queue at most
  ARGV[4] n                     how many fields follow
  ARGV[5..n+4] fields           to return of each parked job's hash
  ARGV[n+5..] queue, …          the queues to look in

  Returns one reply per queue, in order:
    {'', id, until, value, …, id, until, value, …}
                                its parked jobs: the id, the delayed score,
                                the fields in order (nil where missing)
    {error}                     q:{queue}:delayed is not a sorted set
]]
local rcall = redis.call
-- @include layout

local prefix, now, perQueue, fieldCount = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local fields = {}
for f = 1, fieldCount do fields[f] = ARGV[4 + f] end
-- Read besides the caller's fields: a parked job names a holder and no entry.
fields[fieldCount + 1], fields[fieldCount + 2] = 'reserved_by', 'entry'

local replies = {}
for q = 5 + fieldCount, #ARGV do
  local delayed = prefix .. 'q:' .. ARGV[q] .. ':delayed'
  local ids = redis.pcall('ZRANGEBYSCORE', delayed, '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, perQueue)
  if ids.err then
    replies[#replies + 1] = {ids.err}
  else
    local reply = {''}
    for i = 1, #ids, 2 do
      local id = ids[i]
      -- Only a job id names a hash; the doctor reports any other member.
      if string.match(id, '^[1-9]%d*$') then
        local values = redis.pcall('HMGET', jobKey(prefix, id), unpack(fields))
        -- A j:{id} of another type is not a job; the doctor reports it.
        if not values.err and values[fieldCount + 1] and values[fieldCount + 1] ~= '' and (values[fieldCount + 2] or '') == '' then
          reply[#reply + 1] = id
          reply[#reply + 1] = ids[i + 1]
          for f = 1, fieldCount do reply[#reply + 1] = values[f] end
        end
      end
    end
    replies[#replies + 1] = reply
  end
end
return replies
