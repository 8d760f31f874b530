--[[
  MARKO REMOVE: takes one job of one queue out wherever it waits, as
  marko/queue-redis's own delete(id) does (layout note §3, §4.6): its id out
  of the ready list and the delayed and reserved sets, and its job hash
  gone. With a trash (keepSeconds > 0) the job hash is renamed into
  QueueLens's trash whole (lua/includes/trash.lua), with where it was, in
  this same script, so a remove can be undone; with none it is deleted. One
  script, so the driver's pop (a script too) sees the job either whole or
  not at all. A reserved job's worker finds it gone: marko's delete() and
  release() then answer false, as they do for any unknown id. The queue is
  the caller's: the hash's field names are not documented, so the hash is
  not read. Where marko's delete() walks the whole ready list (LREM count
  0), the id is taken from the end of the list it is near, looked for
  within `reach` of each (lua/includes/list-removal.lua), also for a job
  in a set, which marko never also lists. A job with a hash, in no set and
  not within reach of either end of a longer list, is refused
  (BeyondReach), nothing changed: it may be deeper. A notify token the job
  leaves only wakes a blocking pop once for nothing (note §4.5).

  KEYS[1] {prefix}queues:{queue}            list, ready ids
  KEYS[2] {prefix}queues:{queue}:delayed    sorted set, scored by the second it is due
  KEYS[3] {prefix}queues:{queue}:reserved   sorted set, scored by the second the reservation runs out
  KEYS[4] {prefix}jobs:{id}                 hash, the job
  KEYS[5] the trash's index                 (QUEUELENS_PREFIX trash:{prefix}:index, scored in ms)

  ARGV[1] job id
  ARGV[2] queue                             as the trash records where it was
  ARGV[3] trash prefix                      for the trash's per-job keys
  ARGV[4] keep seconds                      0: keep nothing, delete as marko does
  ARGV[5] max entries                       the trash's bound; the oldest go first
  ARGV[6] max bytes                         the trash's bound in bytes (MEMORY USAGE); the oldest go first
  ARGV[7] who                               the operator, as the audit log names them
  ARGV[8] via                               where it was done (dashboard, cli)
  ARGV[9] reach                             ids of the ready list looked at from each end

  Returns {1} when the job was anywhere in the queue or had a hash, {0}
  when it was gone already, or {ErrorCode, key}: BeyondReach (KEYS[1]) as
  above.
]]
local rcall = redis.call
-- @include layout
-- @include trash
-- @include list-removal

local readyKey, delayedKey, reservedKey, jobKey, trashIndexKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local id, queue, trashPrefix = ARGV[1], ARGV[2], ARGV[3]
local keepSeconds, maxEntries, maxBytes = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

local wrongKey = firstWrongTypedKey({readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset', jobKey, 'hash', trashIndexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local dueAt = rcall('ZSCORE', delayedKey, id)
local from = 'ready'
if dueAt then from = 'delayed' elseif rcall('ZSCORE', reservedKey, id) then from = 'reserved' end
local fromSets = rcall('ZREM', delayedKey, id) + rcall('ZREM', reservedKey, id)
local listed = removeNearAnEnd(readyKey, id, tonumber(ARGV[9]))
if listed == nil then
  -- A job taken from a set, or one whose hash is gone, loses nothing deeper in the list.
  if fromSets == 0 and rcall('EXISTS', jobKey) == 1 then return {ErrorCode.BeyondReach, readyKey} end
  listed = 0
end
local removed = fromSets + listed
if rcall('EXISTS', jobKey) == 0 then
  if removed > 0 then return {1} end
  return {0}
end
if keepSeconds <= 0 then
  rcall('DEL', jobKey)
  return {1}
end
local now, nowMs = trashNow()
trashJob(trashIndexKey, trashPrefix, jobKey, id,
  {from = from, queue = queue, level = '', score = dueAt or '', who = ARGV[7], via = ARGV[8]}, now, nowMs, keepSeconds)
boundTrash(trashIndexKey, trashPrefix, nowMs, keepSeconds, maxEntries, maxBytes)
return {1}
