-- Keys a script derives from data (a job id read from a stream or a set, a
-- level read from q:{queue}:levels) cannot be declared in KEYS, so they are
-- built here from the prefix passed in ARGV, exactly as lib/layouts/staticphp/keys.ts
-- builds the declared ones. That is why the layout needs one server (or a
-- hash-tagged prefix that puts every key in one slot).
local function jobKey(prefix, id)
  return prefix .. 'j:' .. id
end

local function streamKey(prefix, queue, level)
  return prefix .. 'q:' .. queue .. ':s:' .. level
end

local function uniqueKeyOf(prefix, key)
  return prefix .. 'u:' .. key
end

-- Priorities are integers; the level is written the same way in the stream
-- key and as the member of q:{queue}:levels. A whole number keeps its digits:
-- tonumber is a double, and PHP's 64-bit priorities above 2^53 would name
-- another level's stream. lib/layouts/staticphp/keys.ts levelOf is the same rule.
local function levelOf(priority)
  local sign, digits = string.match(priority or '', '^(%-?)0*(%d+)$')
  if digits then
    if digits == '0' then return '0' end
    return sign .. digits
  end
  local value = math.floor(tonumber(priority) or 0)
  if value ~= value or math.abs(value) >= 2 ^ 53 then return '0' end
  return string.format('%d', value)
end

local ErrorCode = {
  JobIdTaken = -1,
  WrongKeyType = -2,
  -- yii2 repairs: a stock worker holds the channel's moving_lock.
  MovingLockHeld = -3,
  -- yii2 repairs: the reservation has not expired; reclaiming it is a separate, confirmed step.
  LiveReservation = -4,
  -- removals (lua/includes/list-removal.lua): the job is not near either end of a long list, which LREM walks from an end.
  BeyondReach = -5,
}

-- Returns the first key whose type is neither absent nor the expected one.
-- Checking up front is what lets a script refuse before it writes anything,
-- so a wrong-typed key produces an error instead of a half-applied mutation.
local function firstWrongTypedKey(keysAndTypes)
  for i = 1, #keysAndTypes, 2 do
    local actual = rcall('TYPE', keysAndTypes[i]).ok
    if actual ~= 'none' and actual ~= keysAndTypes[i + 1] then
      return keysAndTypes[i]
    end
  end
  return nil
end

-- Frees u:{key} (`uniqueKey` as the job's hash names it) only while it
-- still names this job: after a completion the key may already have been
-- taken over by a later push. GET on a key of another type answers an
-- error, never this id, so such a key is left for the doctor to report.
local function freeUniqueKey(prefix, uniqueKey, id)
  if uniqueKey and uniqueKey ~= '' then
    local ownerKey = uniqueKeyOf(prefix, uniqueKey)
    if redis.pcall('GET', ownerKey) == id then rcall('DEL', ownerKey) end
  end
end

-- error and last_error are cut at 60000 bytes: string.sub counts bytes, like
-- PHP's substr, so a multi-byte message may be cut mid-character on purpose.
local function truncateError(message)
  if #message > 60000 then
    return string.sub(message, 1, 60000) .. '\n... truncated'
  end
  return message
end

local function levelsKeyOf(prefix, queue)
  return prefix .. 'q:' .. queue .. ':levels'
end

-- The one stream a job's entry can be in: its queue's stream at its
-- priority. Entry ids are unique per stream only (each level's stream
-- numbers its own, and PHP's retry of a live job can add an entry with the
-- same id to another level's stream), so a job's `entry` names an entry only
-- together with this stream.
local function ownStreamOf(prefix, queue, priority)
  return streamKey(prefix, queue or '', levelOf(priority))
end
