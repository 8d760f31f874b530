-- QueueLens's trash for one driver prefix (lib/dashboard/keys.ts trashKeys):
-- an index sorted set of job ids scored by the millisecond they were trashed
-- (seconds would tie two forgets a moment apart, and "newest first" with
-- them), and
-- per id the job's own hash, renamed there whole (its bytes are never read
-- into Lua and written back), beside a small hash of where it was and who
-- took it. The per-id keys are built from `trashPrefix`, passed in ARGV, for
-- the reason lua/includes/layout.lua gives for jobKey.
local function trashJobKey(trashPrefix, id)
  return trashPrefix .. 'j:' .. id
end

local function trashWhereKey(trashPrefix, id)
  return trashPrefix .. 'w:' .. id
end

-- What the byte bound counts: per id the bytes its two keys took when it
-- was kept (a hash, read back when the entry is dropped, by which time its
-- keys may have expired), and their running total (a string). Neither
-- expires: each lives exactly as long as the index members it counts.
local function trashSizesKey(trashPrefix)
  return trashPrefix .. 'sizes'
end

local function trashBytesKey(trashPrefix)
  return trashPrefix .. 'bytes'
end

-- Takes id's recorded size off the total (an entry kept before sizes were
-- recorded counts 0).
local function uncountTrashed(trashPrefix, id)
  local size = tonumber(rcall('HGET', trashSizesKey(trashPrefix), id))
  if size then
    rcall('HDEL', trashSizesKey(trashPrefix), id)
    rcall('DECRBY', trashBytesKey(trashPrefix), size)
  end
end

-- Adds id's two keys' memory (MEMORY USAGE, every field counted) to the total.
local function countTrashed(trashPrefix, id)
  local size = 0
  for _, key in ipairs({trashJobKey(trashPrefix, id), trashWhereKey(trashPrefix, id)}) do
    size = size + (rcall('MEMORY', 'USAGE', key, 'SAMPLES', 0) or 0)
  end
  rcall('HSET', trashSizesKey(trashPrefix), id, size)
  rcall('INCRBY', trashBytesKey(trashPrefix), size)
end

-- How many old entries one call drops at most: a forget adds at most a
-- batch (lib/shapes/failed-jobs.ts BATCH_SIZE), so dropping more than that
-- per call brings an over-full trash back under its bound within a few calls
-- while no call does unbounded work.
local TRASH_DROP_LIMIT = 500

local function dropTrashEntries(indexKey, trashPrefix, ids)
  for _, id in ipairs(ids) do
    rcall('DEL', trashJobKey(trashPrefix, id), trashWhereKey(trashPrefix, id))
    rcall('ZREM', indexKey, id)
    uncountTrashed(trashPrefix, id)
  end
end

-- The server's time in whole milliseconds, as the index scores it, and in seconds.
local function trashNow()
  local time = rcall('TIME')
  local seconds = tonumber(time[1])
  return seconds, seconds * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- Drops entries past their time (their keys have expired already; the index
-- member is what is left), then the oldest beyond `maxEntries`, then the
-- oldest while the kept bytes are over `maxBytes` (a job bigger than the
-- whole bound goes too: the bound holds).
local function boundTrash(indexKey, trashPrefix, nowMs, keepSeconds, maxEntries, maxBytes)
  dropTrashEntries(indexKey, trashPrefix,
    rcall('ZRANGEBYSCORE', indexKey, '-inf', '(' .. string.format('%d', nowMs - keepSeconds * 1000), 'LIMIT', 0, TRASH_DROP_LIMIT))
  local over = rcall('ZCARD', indexKey) - maxEntries
  if over > 0 then
    dropTrashEntries(indexKey, trashPrefix, rcall('ZRANGE', indexKey, 0, math.min(over, TRASH_DROP_LIMIT) - 1))
  end
  local dropped = 0
  while dropped < TRASH_DROP_LIMIT and (tonumber(rcall('GET', trashBytesKey(trashPrefix))) or 0) > maxBytes do
    local oldest = rcall('ZRANGE', indexKey, 0, 0)
    if #oldest == 0 then break end
    dropTrashEntries(indexKey, trashPrefix, oldest)
    dropped = dropped + 1
  end
end

-- Records trashed job `id` in the index, with where it was: `from` (failed,
-- ready, delayed), `queue`, `level` and `score` (its failed or delayed set
-- score), and who took it `via` what. Its job key there is already written.
local function keepTrashed(indexKey, trashPrefix, id, where, now, nowMs, keepSeconds)
  local whereKey = trashWhereKey(trashPrefix, id)
  rcall('EXPIRE', trashJobKey(trashPrefix, id), keepSeconds)
  rcall('HSET', whereKey, 'from', where.from, 'queue', where.queue, 'level', where.level, 'score', where.score,
    'who', where.who, 'via', where.via, 'at', now, 'until', now + keepSeconds)
  rcall('EXPIRE', whereKey, keepSeconds)
  rcall('ZADD', indexKey, string.format('%d', nowMs), id)
  uncountTrashed(trashPrefix, id)
  countTrashed(trashPrefix, id)
end

-- Moves job hash `jobHashKey` (id `id`) into the trash whole, renamed. A
-- second trashing of the same id (a reused id) replaces the first.
local function trashJob(indexKey, trashPrefix, jobHashKey, id, where, now, nowMs, keepSeconds)
  local jobKeyThere = trashJobKey(trashPrefix, id)
  rcall('DEL', jobKeyThere, trashWhereKey(trashPrefix, id))
  rcall('RENAME', jobHashKey, jobKeyThere)
  keepTrashed(indexKey, trashPrefix, id, where, now, nowMs, keepSeconds)
end

-- Keeps job `id` that its driver stores as one field of a shared hash (a
-- marko failed record): the trash's job key is a hash of that one field,
-- `id` -> `record`, its bytes as they were. A reused id replaces the first.
local function trashRecord(indexKey, trashPrefix, id, record, where, now, nowMs, keepSeconds)
  local jobKeyThere = trashJobKey(trashPrefix, id)
  rcall('DEL', jobKeyThere, trashWhereKey(trashPrefix, id))
  rcall('HSET', jobKeyThere, id, record)
  keepTrashed(indexKey, trashPrefix, id, where, now, nowMs, keepSeconds)
end

-- Restores every id of ARGV from `first` on with `putBack(id, jobKeyThere,
-- whereKey)`, which answers restored or why not (and leaves the trash as it
-- was unless restored); an id with no job key there is gone. A restored
-- id's trash entry is dropped (its job key too, where putBack copied the
-- job out rather than renaming it back). Returns {id, outcome, queue, …} (queue: the entry's, '' when it is gone), as
-- every restore script replies.
local function restoreEach(indexKey, trashPrefix, first, putBack)
  local outcomes = {}
  for i = first, #ARGV do
    local id = ARGV[i]
    local jobKeyThere, whereKey = trashJobKey(trashPrefix, id), trashWhereKey(trashPrefix, id)
    local outcome = 'gone'
    -- Read first: a restore deletes the entry, and the dashboard refreshes the queue it names.
    local queue = rcall('TYPE', whereKey).ok == 'hash' and rcall('HGET', whereKey, 'queue') or ''
    if rcall('TYPE', jobKeyThere).ok == 'hash' then outcome = putBack(id, jobKeyThere, whereKey) end
    if outcome == 'restored' then
      rcall('DEL', jobKeyThere, whereKey)
      rcall('ZREM', indexKey, id)
      uncountTrashed(trashPrefix, id)
    end
    outcomes[#outcomes + 1] = id
    outcomes[#outcomes + 1] = outcome
    outcomes[#outcomes + 1] = queue or ''
  end
  return outcomes
end
