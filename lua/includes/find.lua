-- Find's bounded reading and byte matching, shared by the scripts that
-- look through one index a chunk at a time (lua/shared/find-in-jobs-1.lua,
-- lua/laravel/find-payloads-1.lua).

-- One chunk of a list (from an offset) or a sorted set (from a ZSCAN
-- cursor, '' to start): its members, and where the next chunk starts ('' once
-- the index is done). ZSCAN's COUNT is a hint: a small set comes back whole.
local function findChunkOf(kind, index, position, count)
  if kind == 'list' then
    local start = tonumber(position) or 0
    local members = rcall('LRANGE', index, start, start + count - 1)
    return members, #members == count and tostring(start + count) or ''
  end
  local scan = rcall('ZSCAN', index, position == '' and '0' or position, 'COUNT', count)
  local members = {}
  for i = 1, #scan[2], 2 do members[#members + 1] = scan[2][i] end
  return members, scan[1] ~= '0' and scan[1] or ''
end

-- The first of `needles` (tried in order) that `value` holds: where it
-- starts, and which it is; nil when none. Plain byte matching.
local function firstNeedleIn(value, needles)
  if type(value) ~= 'string' or value == '' then return nil end
  for i = 1, #needles do
    local at = string.find(value, needles[i], 1, true)
    if at then return at, needles[i] end
  end
  return nil
end

-- `value`'s bytes from `window` before the match at `at` (`length` long)
-- to `window` after it, and the 1-based byte they start at: a results row
-- needs them, not the whole value.
local function windowAround(value, at, length, window)
  local from = math.max(1, at - window)
  return string.sub(value, from, at + length - 1 + window), from
end
