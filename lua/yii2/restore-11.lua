--[[
  YII2 RESTORE: puts removed jobs from QueueLens's trash back into their
  channel as they were: the message's bytes under its id, its attempts,
  priority and rank, and its place: a delayed job back in the delayed set at
  its due second; a job taken from the line or from a reservation into the
  line now, where the driver's own mover puts a job that came due (see
  joinLineNow in lua/includes/yii2-line.lua: stock onto the tail the next
  reserve pops, ng at its remembered rank when it has one). yii2 never
  reuses an id (message_id only grows), so an id with a message again was
  written by hand meanwhile: such a job is refused and stays in the trash.

  It waits for the stock moving_lock to be free (see movingLockFree): a
  stock mover between reading due ids and dropping them from the delayed
  set would drop a restored due id without pushing it. A lock this
  QueueLens's removal took (`holder`) is free to it: an Undo just after a
  removal need not wait out the second the removal holds it.

  KEYS[1]  <ch>.messages      hash
  KEYS[2]  <ch>.waiting       list (the stock line)
  KEYS[3]  <ch>.prioritized   sorted set (ng's line)
  KEYS[4]  <ch>.delayed       sorted set
  KEYS[5]  <ch>.attempts      hash
  KEYS[6]  <ch>.priorities    hash
  KEYS[7]  <ch>.ranks         hash
  KEYS[8]  <ch>.marker        sorted set
  KEYS[9]  <ch>.seq           string
  KEYS[10] <ch>.moving_lock   string
  KEYS[11] the trash's index  (QUEUELENS_PREFIX trash:{<ch>.}:index)

  ARGV[1..5] the driver (yii2 or yii2-ng) and ng's placing settings, as
             ngSettingsFrom reads them (lua/includes/yii2-line.lua)
  ARGV[6] trash prefix       for the trash's per-job keys
  ARGV[7] holder             the moving_lock's value while this QueueLens
                             holds it (lua/yii2/remove-10.lua)
  ARGV[8..] job ids          a bounded batch

  Returns {id, outcome, queue, id, outcome, queue, …}: queue is the one the
  trash entry names ('' when it is gone); outcome is restored, gone (not in
  the trash: expired, restored already, never there), id-taken or
  unsupported (kept from somewhere this script cannot put it back); or
  {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include yii2-line
-- @include trash

local keys = {
  messages = KEYS[1], waiting = KEYS[2], prioritized = KEYS[3], delayed = KEYS[4], attempts = KEYS[5],
  priorities = KEYS[6], ranks = KEYS[7], marker = KEYS[8], seq = KEYS[9], movingLock = KEYS[10], trashIndex = KEYS[11],
}
local ng = ngSettingsFrom(ARGV)
local trashPrefix = ARGV[6]

local wrongKey = firstWrongTypedKey({
  keys.messages, 'hash', keys.waiting, 'list', keys.prioritized, 'zset', keys.delayed, 'zset', keys.attempts, 'hash',
  keys.priorities, 'hash', keys.ranks, 'hash', keys.marker, 'zset', keys.seq, 'string', keys.movingLock, 'string',
  keys.trashIndex, 'zset',
})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end
if not movingLockFree(keys.movingLock, ARGV[7]) then return movingLockHeld(keys.movingLock) end

-- Writes `value` into `hash` under the id, where the job had an entry there.
local function putEntry(hash, id, value)
  if value and value ~= '' then rcall('HSET', hash, id, value) end
end

local _, nowMs = trashNow()

local function putBack(id, jobKeyThere, whereKey)
  local message = rcall('HGET', jobKeyThere, id)
  if not message then return 'gone' end
  local from, score, attempts, priority, rank = unpack(rcall('HMGET', whereKey, 'from', 'score', 'attempts', 'priority', 'rank'))
  if from ~= 'ready' and from ~= 'delayed' and from ~= 'reserved' then return 'unsupported' end
  if rcall('HEXISTS', keys.messages, id) == 1 then return 'id-taken' end
  rcall('HSET', keys.messages, id, message)
  putEntry(keys.attempts, id, attempts)
  putEntry(keys.priorities, id, priority)
  putEntry(keys.ranks, id, rank)
  if from == 'delayed' and score and score ~= '' then
    rcall('ZADD', keys.delayed, score, id)
  else
    joinLineNow(keys, ng, id, nowMs, rank ~= nil and rank ~= '')
  end
  return 'restored'
end

return restoreEach(keys.trashIndex, trashPrefix, 8, putBack)
