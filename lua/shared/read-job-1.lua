--[[
  READ JOB: one job hash as the job page shows it: every field's name, its
  stored length in bytes, and at most the first `limit` bytes of its value.
  Reads only. A 20 MB payload costs Redis one copy of it into the script
  (there is no ranged read of a hash field) but crosses the network, and
  lands in the dashboard's memory, as `limit` bytes: a page opened by 100
  people at once does not move 2 GB. Bounded by `maxFields`: a job hash has
  a dozen fields, and a key with thousands is not read whole.

  A value longer than `limit` must still be copied whole into the script to
  cut its first bytes: 45-55 ms of Redis for 20 MB. The caller names the
  long values whose first bytes it already holds, with their lengths; such a
  value whose stored length is still the one named is not read again, and
  its prefix comes back as nil ("the one you have").

  KEYS[1] j:{id}                the job hash

  ARGV[1] limit                 bytes of each value returned at most
  ARGV[2] maxFields             more fields than this are refused, unread
  ARGV[3], ARGV[4], …           optional (field, length) pairs: values longer
                                than `limit` whose prefix the caller holds

  Returns:
    {type}                      j:{id} is not a hash: its type ('none' when
                                it does not exist)
    {'hash', count}             the hash has more than maxFields fields
    {'hash', name, length, prefix, name, length, prefix, …}
                                every field in HKEYS order; prefix is nil
                                for a field named in ARGV at that length
]]
local rcall = redis.call

local key, limit, maxFields = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
local keyType = rcall('TYPE', key).ok
if keyType ~= 'hash' then return {keyType} end
local count = rcall('HLEN', key)
if count > maxFields then return {'hash', count} end

local held = {}
for index = 3, #ARGV - 1, 2 do held[ARGV[index]] = tonumber(ARGV[index + 1]) end

local reply = {'hash'}
for _, name in ipairs(rcall('HKEYS', key)) do
  local length = rcall('HSTRLEN', key, name)
  local value = false
  if length > limit then
    if held[name] ~= length then value = string.sub(rcall('HGET', key, name), 1, limit) end
  else
    value = rcall('HGET', key, name)
  end
  reply[#reply + 1] = name
  reply[#reply + 1] = length
  reply[#reply + 1] = value
end
return reply
