--[[
  LARAVEL REMOVE: takes one job the operator saw out of its queue, by its
  payload's exact bytes: one element of the ready list or the member of
  the delayed or reserved set. Laravel's pop and migrate are scripts too,
  so the job is either still where it was read or moved with the same
  bytes (a release moves the reserved payload to the delayed set, a
  migrate moves a due or expired one to the ready list): wherever those
  bytes are now, they go. Bytes that changed (a pop
  re-encodes the payload it reserves) are another job as far as this script
  knows, and left alone. A reserved job's worker finds its reservation
  gone: its delete is then a ZREM of nothing, and its release puts the job
  back in the delayed set. The notify token a ready job leaves only wakes a
  blocking pop once for nothing, as Laravel's own tokens often do.

  A ready job's bytes are taken from the end of the list they are near,
  looked for within `reach` of each (lua/includes/list-removal.lua: LREM
  from the head held Redis 55 ms for a job at the end of a list of a
  million). Bytes further from both ends of a longer list are refused
  (BeyondReach), nothing changed: they may be there, or popped.

  With a trash (keepSeconds > 0) the payload's exact bytes are kept in
  QueueLens's trash (lua/includes/trash.lua trashRecord: a hash of one field,
  the job id -> the payload), with where they were (from ready, delayed or
  reserved; a delayed job's score), in this same script, so a remove can be
  undone (lua/laravel/restore-1.lua); with none they are deleted. Laravel
  has no job key to rename: its payload is an element of a list or set.
  Under a cluster the trash is in the queue's slot because the Laravel
  prefix then carries a hash tag (lib/redis/client.ts refuses one without),
  and the trash's keys take the prefix's tag (lib/dashboard/keys.ts trashKeys).

  KEYS[1] {prefix}queues:{queue}            list, ready payloads
  KEYS[2] {prefix}queues:{queue}:delayed    sorted set, scored by the second it is due
  KEYS[3] {prefix}queues:{queue}:reserved   sorted set, scored by the second the reservation runs out
  KEYS[4] the trash's index                 (QUEUELENS_PREFIX trash:{prefix}:index, scored in ms)

  ARGV[1] the payload as read
  ARGV[2] job id                            the trash's key for it: the payload's id, as the operator named it
  ARGV[3] queue                             as the trash records where it was
  ARGV[4] trash prefix                      for the trash's per-job keys
  ARGV[5] keep seconds                      0: keep nothing, delete as Laravel does
  ARGV[6] max entries                       the trash's bound; the oldest go first
  ARGV[7] max bytes                         the trash's bound in bytes (MEMORY USAGE); the oldest go first
  ARGV[8] who                               the operator, as the audit log names them
  ARGV[9] via                               where it was done (dashboard, cli)
  ARGV[10] reach                            elements of the ready list looked at from each end

  Returns {1} when it was removed, {0} when those bytes are nowhere any
  more, or {ErrorCode, key}: BeyondReach (KEYS[1]) when they are not within
  reach of either end of a ready list longer than twice the reach.
]]
local rcall = redis.call
-- @include layout
-- @include trash
-- @include list-removal

local readyKey, delayedKey, reservedKey, trashIndexKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local payload, id, queue, trashPrefix = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local keepSeconds, maxEntries, maxBytes = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local reach = tonumber(ARGV[10])

local wrongKey = firstWrongTypedKey({readyKey, 'list', delayedKey, 'zset', reservedKey, 'zset', trashIndexKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

-- Bytes in both sets at once (Laravel's release moves them in one script,
-- so only a hand-made copy) go from both and are kept once, as delayed.
local dueAt = rcall('ZSCORE', delayedKey, payload)
local from
if rcall('ZREM', delayedKey, payload) > 0 then from = 'delayed' end
if rcall('ZREM', reservedKey, payload) > 0 then from = from or 'reserved' end
if not from then
  local taken = removeNearAnEnd(readyKey, payload, reach)
  if taken == nil then return {ErrorCode.BeyondReach, readyKey} end
  if taken == 0 then return {0} end
  from = 'ready'
end
if keepSeconds <= 0 then return {1} end

local now, nowMs = trashNow()
trashRecord(trashIndexKey, trashPrefix, id, payload,
  {from = from, queue = queue, level = '', score = dueAt or '', who = ARGV[8], via = ARGV[9]}, now, nowMs, keepSeconds)
boundTrash(trashIndexKey, trashPrefix, nowMs, keepSeconds, maxEntries, maxBytes)
return {1}
