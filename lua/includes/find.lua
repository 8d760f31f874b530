-- Find's bounded reading and byte matching (exact, or with ASCII letters in
-- either case), shared by the scripts that look through one index a chunk
-- at a time (lua/shared/find-in-jobs-2.lua, lua/laravel/find-payloads-1.lua).

-- A time range's test: whether an index's number (a sorted set's score, a
-- stream id's ms) times `scale` (1000 for Unix seconds, -1000 for Horizon's
-- -microtime, 1 for ms) is at or after `from` and before `till`, Unix ms
-- given as text, '' for open. nil when the range is open on both sides.
local function timeTestOf(from, till, scale)
  local low, high, by = tonumber(from), tonumber(till), tonumber(scale) or 1
  if not low and not high then return nil end
  return function(number)
    local ms = tonumber(number) * by
    return (not low or ms >= low) and (not high or ms < high)
  end
end

-- One chunk of a list or a sorted set (from a ZSCAN cursor, '' to start):
-- its members, where the next chunk starts ('' once the index is done), how
-- many it read, and a set's members' scores (as ZSCAN gives them). A list
-- is read from its tail, its position the places before the tail already
-- read: every driver pushes onto the tail and its
-- workers pop the head, and a pop moves no place counted from the tail, so
-- a walk while workers run misses no job that was waiting when it began (a
-- push meanwhile moves the unread ones a place away, and a job read already
-- may be read again). ZSCAN's COUNT is a hint: a small set comes back
-- whole. With `inTime` (timeTestOf), a sorted set's members whose score is
-- out of the range are read but not returned: ZSCAN gives
-- the scores with the members, and its cursor, unlike a rank or a score,
-- is not moved by the members a promotion or an every-match action takes
-- out while the walk goes on.
local function findChunkOf(kind, index, position, count, inTime)
  if kind == 'list' then
    local read = tonumber(position) or 0
    local members = rcall('LRANGE', index, -(read + count), -(read + 1))
    return members, #members == count and tostring(read + count) or '', #members
  end
  local scan = rcall('ZSCAN', index, position == '' and '0' or position, 'COUNT', count)
  local members, scores = {}, {}
  for i = 1, #scan[2], 2 do
    if not inTime or inTime(scan[2][i + 1]) then
      members[#members + 1] = scan[2][i]
      scores[#members] = scan[2][i + 1]
    end
  end
  return members, scan[1] ~= '0' and scan[1] or '', #scan[2] / 2, scores
end

-- Bytes that are magic in a Lua pattern outside a class: each is written
-- `%` before it to stand for itself.
local PATTERN_MAGIC = '^$()%.[]*+-?'

-- `needle` as a Lua pattern that matches its bytes with each ASCII letter
-- in either case (`[aA]`), every other byte as it is: a UTF-8 letter's
-- bytes match exactly. Built once per call, so no value is lower-cased
-- (string.lower would copy every payload). NUL is `%z`: Lua 5.1 reads a NUL
-- in a pattern as its end. Only literals and classes: no backtracking.
local function caseFoldedPattern(needle)
  local parts = {}
  for i = 1, #needle do
    local char = string.sub(needle, i, i)
    local byte = string.byte(char)
    if (byte >= 65 and byte <= 90) or (byte >= 97 and byte <= 122) then
      parts[i] = '[' .. string.lower(char) .. string.upper(char) .. ']'
    elseif byte == 0 then
      parts[i] = '%z'
    elseif string.find(PATTERN_MAGIC, char, 1, true) then
      parts[i] = '%' .. char
    else
      parts[i] = char
    end
  end
  return table.concat(parts)
end

-- How each of `texts` is looked for: as its bytes (plain string.find), or,
-- under `ignoreCase`, as its case-folded pattern.
local function textMatchers(texts, ignoreCase)
  local matchers = {}
  for i, text in ipairs(texts) do
    matchers[i] = ignoreCase and {pattern = caseFoldedPattern(text)} or {plain = text}
  end
  return matchers
end

-- The first of `matchers` (tried in order) that `value` holds: the 1-based
-- bytes its match starts and ends at; nil when none.
local function firstMatchIn(value, matchers)
  if type(value) ~= 'string' or value == '' then return nil end
  for _, matcher in ipairs(matchers) do
    local at, stop
    if matcher.plain then
      at, stop = string.find(value, matcher.plain, 1, true)
    else
      at, stop = string.find(value, matcher.pattern)
    end
    if at then return at, stop end
  end
  return nil
end

-- `value`'s bytes from `window` before the match at `at`..`stop` to
-- `window` after it, and the 1-based byte they start at: a results row
-- needs them, not the whole value.
local function windowAround(value, at, stop, window)
  local from = math.max(1, at - window)
  return string.sub(value, from, stop + window), from
end
