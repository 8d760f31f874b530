--[[
  YII2 REMOVE: deletes a job wherever it is, as redis-ng's remove.lua does
  (and the stock remove() does in separate commands, ng's keys aside): its
  message, its place in the stock list, ng's line, the delayed and reserved
  sets, and its attempts, priority and rank. Valid for stock channels too,
  where it is atomic and the driver's own remove is not.

  Like the stock remove() it waits for moving_lock, so that no stock mover
  is between reading this id and pushing it back into the list; the stock
  remove spins for the lock, a script cannot, so it refuses while the lock
  is held, saying when it expires, and the caller tries again then (see
  movingLockHeld). And like the stock remove() it then takes the lock for a
  second (SET PX 1000, on a stock channel), under `holder`, the value this
  QueueLens process writes: the removals after it find the lock theirs and
  go on, while workers still reserve (they need the lock only to move due
  and expired jobs, which waits for that second, as after the driver's own
  remove). A busy worker takes a free lock at every reserve; without this,
  a bulk removal would get in only at the instant each lock expires. Both
  drivers' own remove walks the whole stock list (LREM count 0: 18 ms for
  a million ids, measured); this takes the id from the end of the list it
  is near, looked for within `reach` of each (lua/includes/list-removal.lua),
  and refuses a job in no set further from both ends of a longer list
  (BeyondReach) before it changes anything, the lock included.

  Removing a reserved job does not stop the worker running it; that worker's
  acknowledge is then a no-op.

  With a trash (keepSeconds > 0) the message's bytes are kept in
  QueueLens's trash (lua/includes/trash.lua) in this same script, with
  where the job was (ready, delayed with its due second, or reserved) and
  its attempts, priority and rank, so that lua/yii2/restore-11.lua puts it
  back as it was; with none it is deleted.

  KEYS[1] <ch>.messages      hash
  KEYS[2] <ch>.waiting       list (the stock line)
  KEYS[3] <ch>.prioritized   sorted set (ng's line)
  KEYS[4] <ch>.delayed       sorted set
  KEYS[5] <ch>.reserved      sorted set
  KEYS[6] <ch>.attempts      hash
  KEYS[7] <ch>.priorities    hash
  KEYS[8] <ch>.ranks         hash
  KEYS[9] <ch>.moving_lock   string
  KEYS[10] the trash's index (QUEUELENS_PREFIX trash:{<ch>.}:index, scored in ms)

  ARGV[1] job id
  ARGV[2] trash prefix       for the trash's per-job keys
  ARGV[3] keep seconds       0: keep nothing, delete as the driver does
  ARGV[4] max entries        the trash's bound; the oldest go first
  ARGV[5] max bytes          the trash's bound in bytes (MEMORY USAGE); the oldest go first
  ARGV[6] who                the operator, as the audit log names them
  ARGV[7] via                where it was done (dashboard, cli)
  ARGV[8] channel            as the trash records where it was
  ARGV[9] holder             the lock's value while this QueueLens holds it
                             ('' on ng, which never takes the lock)
  ARGV[10] reach             ids of the stock list looked at from each end

  Returns {1} when the job had a message and is gone now, {0} when its
  message was already gone (nothing is touched then, as ng's remove), or
  {ErrorCode, key}: BeyondReach (KEYS[2]) as above.
]]
local rcall = redis.call
-- @include layout
-- @include yii2-line
-- @include trash
-- @include list-removal

local messagesKey, waitingKey, prioritizedKey, delayedKey, reservedKey, attemptsKey, prioritiesKey, ranksKey, lockKey, trashIndexKey =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]
local id, trashPrefix = ARGV[1], ARGV[2]
local keepSeconds, maxEntries, maxBytes = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])

local wrongKey = firstWrongTypedKey({
  messagesKey, 'hash', waitingKey, 'list', prioritizedKey, 'zset', delayedKey, 'zset', reservedKey, 'zset',
  attemptsKey, 'hash', prioritiesKey, 'hash', ranksKey, 'hash', lockKey, 'string', trashIndexKey, 'zset',
})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if rcall('HEXISTS', messagesKey, id) == 0 then return {0} end
local holder = ARGV[9]
if not movingLockFree(lockKey, holder) then return movingLockHeld(lockKey) end
local listed = removeNearAnEnd(waitingKey, id, tonumber(ARGV[10]))
if listed == nil and not (rcall('ZSCORE', prioritizedKey, id) or rcall('ZSCORE', delayedKey, id) or rcall('ZSCORE', reservedKey, id)) then
  return {ErrorCode.BeyondReach, waitingKey}
end
if holder ~= '' and rcall('EXISTS', lockKey) == 0 then rcall('SET', lockKey, holder, 'PX', 1000) end

if keepSeconds > 0 then
  local dueAt = rcall('ZSCORE', delayedKey, id)
  local from = 'ready'
  if dueAt then from = 'delayed' elseif rcall('ZSCORE', reservedKey, id) then from = 'reserved' end
  local now, nowMs = trashNow()
  trashRecord(trashIndexKey, trashPrefix, id, rcall('HGET', messagesKey, id),
    {from = from, queue = ARGV[8], level = '', score = dueAt or '', who = ARGV[6], via = ARGV[7]}, now, nowMs, keepSeconds)
  rcall('HSET', trashWhereKey(trashPrefix, id), 'attempts', rcall('HGET', attemptsKey, id) or '',
    'priority', rcall('HGET', prioritiesKey, id) or '', 'rank', rcall('HGET', ranksKey, id) or '')
  boundTrash(trashIndexKey, trashPrefix, nowMs, keepSeconds, maxEntries, maxBytes)
end

rcall('HDEL', messagesKey, id)
rcall('ZREM', prioritizedKey, id)
rcall('ZREM', delayedKey, id)
rcall('ZREM', reservedKey, id)
rcall('HDEL', attemptsKey, id)
rcall('HDEL', prioritiesKey, id)
rcall('HDEL', ranksKey, id)
return {1}
