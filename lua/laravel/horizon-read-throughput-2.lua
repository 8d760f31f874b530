--[[
  HORIZON READ THROUGHPUT: what Horizon counted of one queue's finished
  jobs, read only. Horizon's UpdateJobMetrics listener runs its
  updateMetrics script once per job that finished without failing: it adds
  one to the `throughput` field of {horizon prefix}queue:{name}. Every
  minute its `horizon:snapshot` command moves that count into a snapshot
  (RedisMetricsRepository::storeSnapshotForQueue: HMGET and DEL in one
  transaction, then a ZADD of a JSON {throughput, runtime, wait, time}
  scored by that second, then a trim to the newest 24 or so). So the jobs
  finished since any moment are the count now, plus what every snapshot
  taken since then moved, less the count at that moment.

  KEYS[1] {horizon prefix}queue:{name}            hash: throughput, runtime
  KEYS[2] {horizon prefix}snapshot:queue:{name}   sorted set of JSON snapshots, scored by second

  ARGV[1] the score of the newest snapshot already counted ('-inf' when
          there was none: every snapshot is new), or '' the first time: then
          no snapshot is summed, only the newest's score returned, to
          count from

  Returns {throughput now, newest snapshot score or '', the sum of the
  throughput of the snapshots scored above ARGV[1] (at most 100 of them:
  the rest are summed by the next call), snapshots that were not JSON},
  or {ErrorCode.WrongKeyType, key}. Bounded: one HGET and one ZRANGE of at
  most 100 members of about 80 bytes.
]]
local rcall = redis.call
-- @include layout

local countsKey, snapshotsKey = KEYS[1], KEYS[2]
local counted = ARGV[1]

local wrongKey = firstWrongTypedKey({countsKey, 'hash', snapshotsKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local now = rcall('HGET', countsKey, 'throughput') or '0'
if counted == '' then
  local newest = rcall('ZRANGE', snapshotsKey, -1, -1, 'WITHSCORES')
  return {now, newest[2] or '', 0, 0}
end

local above = counted == '-inf' and counted or '(' .. counted
local newer = rcall('ZRANGEBYSCORE', snapshotsKey, above, '+inf', 'WITHSCORES', 'LIMIT', 0, 100)
local moved, unreadable, newest = 0, 0, counted == '-inf' and '' or counted
for i = 1, #newer, 2 do
  -- Horizon encodes HMGET's reply: the count as a string, or false when the hash was gone.
  local ok, snapshot = pcall(cjson.decode, newer[i])
  local count = ok and type(snapshot) == 'table' and tonumber(snapshot.throughput)
  if count then moved = moved + count elseif not ok then unreadable = unreadable + 1 end
  newest = newer[i + 1]
end
return {now, newest, moved, unreadable}
