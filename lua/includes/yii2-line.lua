-- How a job re-enters a yii2 channel's line, the way each driver's own
-- mover puts it there (shared/spec/yii2-queue-redis-layout.md §1.2, §2.2).
-- Shared by the yii2 repair scripts so that every one places a job by one
-- set of rules.

-- ng's score constants (its common.lua): strict bands of 10^12 per priority
-- point, aging counted in ms from 2025-01-01 with 1024 ties per ms.
local NG_BAND = 1000000000000
local NG_EPOCH = 1735689600000
local NG_TIES = 1024

-- ng's settings as ARGV[2..5] carry them in every script that places a job,
-- after the driver in ARGV[1], in the order ng's own scripts take them:
-- default priority, aging in ms per priority point (0 = strict), retried
-- jobs keep their place (0/1), delayed jobs keep their place (0/1). false
-- when the driver is the stock one, which has none.
local function ngSettingsFrom(argv)
  if argv[1] ~= 'yii2-ng' then return false end
  return {
    defaultPriority = tonumber(argv[2]) or 1024,
    agingMs = tonumber(argv[3]) or 0,
    retryKeepsPlace = argv[4] == '1',
    delayKeepsPlace = argv[5] == '1',
  }
end

-- Redis TIME in ms, as ng's common.lua reads its clock.
local function serverNowMs()
  local time = rcall('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- ng's enqueue: the job's stored or default priority, and its rank: the one
-- remembered in `ranks` when `keepPlace` (a malformed one counts as none,
-- where ng would fail), else `atMs` with a fresh INCR of seq, remembered
-- when retried jobs keep their place (ng stores by the retry option whatever
-- the caller, spec §1 `ranks`).
local function ngEnqueue(keys, ng, id, atMs, keepPlace)
  local priority = tonumber(rcall('HGET', keys.priorities, id)) or ng.defaultPriority
  local joined, seq
  if keepPlace then
    joined, seq = string.match(rcall('HGET', keys.ranks, id) or '', '^(%d+):(%d+)$')
  end
  if not joined then
    local rank = string.format('%.0f:%.0f', atMs, rcall('INCR', keys.seq))
    if ng.retryKeepsPlace then rcall('HSET', keys.ranks, id, rank) end
    joined, seq = string.match(rank, '^(%d+):(%d+)$')
  end
  local score
  if ng.agingMs > 0 then
    score = (tonumber(joined) - NG_EPOCH + priority * ng.agingMs) * NG_TIES + tonumber(seq) % NG_TIES
  else
    score = priority * NG_BAND + tonumber(seq) % NG_BAND
  end
  rcall('ZADD', keys.prioritized, string.format('%.0f', score), id)
end

-- ng's arm: blocked ng workers wait on the marker, not on the line.
local function ngArm(keys)
  if rcall('ZCARD', keys.prioritized) > 0 then rcall('ZADD', keys.marker, 0, '0') end
end

-- Puts `id` into line now, where the driver's own mover puts a job that came
-- due or whose reservation ran out: stock RPUSHes it onto the tail of the
-- list (the end the next reserve pops); ng joins it at `atMs`, keeping its
-- remembered place when `keepPlace`, and arms the marker. The caller has
-- checked the moving_lock and takes the id out of where it was.
--
-- Repairs place a job themselves rather than scoring it due for the mover:
-- the stock mover reads the due ids, pushes them, and only then removes
-- everything due from the set, so an id made due between its first and last
-- command is removed without being pushed. Its lock lasts one second, and a
-- mover with thousands of ids to push one by one can outlast it; a job that
-- is no longer in the set cannot be caught by that removal.
local function joinLineNow(keys, ng, id, atMs, keepPlace)
  if ng then
    ngEnqueue(keys, ng, id, atMs, keepPlace)
    ngArm(keys)
  else
    rcall('RPUSH', keys.waiting, id)
  end
end

-- The stock movers take moving_lock (SET NX EX 1) and then move in several
-- commands. A repair that moves or removes ids runs only while the lock is
-- free, so that no stock mover is between its read and its write (which
-- would put the id in two places). It need not hold the lock itself: the
-- script is atomic, and a mover that starts after it reads what it left. ng
-- never sets the lock, so under ng alone it is always free.
--
-- A removal does take it, as the stock remove() does, under a value of its
-- own (`holder`, lua/yii2/remove-10.lua): held by that value, the lock is
-- free to the removals that follow it (no mover can be moving: none won
-- it), so that a bulk removal is not starved by a busy worker that takes it
-- back at every reserve.
local function movingLockFree(lockKey, holder)
  local value = rcall('GET', lockKey)
  return not value or (holder ~= nil and holder ~= '' and value == holder)
end

-- The refusal while the lock is held, with the milliseconds it has left
-- (-1: no expiry, a stock clear() that died): the lock only ever expires, so
-- the caller tries again when it does (lib/redis/repair-scripts.ts), ahead
-- of a worker that takes it again at its next reserve.
local function movingLockHeld(lockKey)
  return {ErrorCode.MovingLockHeld, lockKey, rcall('PTTL', lockKey)}
end

-- KEYS[1..8] of the scripts that move jobs into line from one sorted set
-- (yii2-promote-due and yii2-run-now from delayed, yii2-release from
-- reserved), as one table with that set as `from`, and the first of them
-- holding the wrong type (nil when none does).
local function lineKeysFrom(keys)
  local line = {
    waiting = keys[1], prioritized = keys[2], from = keys[3], priorities = keys[4],
    marker = keys[5], seq = keys[6], ranks = keys[7], movingLock = keys[8],
  }
  return line, firstWrongTypedKey({
    line.waiting, 'list', line.prioritized, 'zset', line.from, 'zset', line.priorities, 'hash',
    line.marker, 'zset', line.seq, 'string', line.ranks, 'hash', line.movingLock, 'string',
  })
end
