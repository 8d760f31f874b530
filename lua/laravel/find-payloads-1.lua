--[[
  LARAVEL FIND PAYLOADS: one bounded step of Find over one structure of a
  Laravel queue. A Laravel job has no key of its own: each element is its
  whole payload (JSON), so the payloads are matched here and only the
  matches leave Redis, each with a window of bytes around the match. Read
  only. Plain byte matching, case-sensitive; or, under ignoreCase, each
  spelling and the text as patterns with their ASCII letters in either case
  (lua/includes/find.lua), built once per call. An id is always equal.

  A job's id and name are read as lib/layouts/laravel/payload.ts reads them
  (`id`, else `uuid`; `displayName`, else `data.commandName`), only for the
  payloads that match: from its ends where it has the shape Laravel's PHP
  writes; else cjson decodes one up to DECODE_LIMIT bytes; a longer
  one gives the first `"id":"…"` (`"uuid":"…"`, …) string in it, the element
  lua/laravel/find-job-3.lua's needles find, and a payload that is no JSON
  names no id.

  Under a time range, a sorted set's members whose score (the second a
  delayed job is due, or a reservation expires) is out of it are read but
  not returned; a ready list records no time, and its caller walks none
  under a range.

  KEYS[1] index      {prefix}queues:{queue} (list) or its :delayed or
                     :reserved sorted set

  ARGV[1] kind       'list' | 'zset'
  ARGV[2] position   list: an offset; zset: a ZSCAN cursor ('' to start)
  ARGV[3] count      elements to read at most
  ARGV[4] field      any | id | name | payload (Laravel keeps no errors in
                     Redis: 'error' matches nothing)
  ARGV[5] window     bytes kept on either side of a payload match
  ARGV[6] id         the text, when it can be a job id (letters, digits,
                     dashes: no JSON escape in it); '' otherwise
  ARGV[7] text       the text as typed: what a decoded name must contain
  ARGV[8] ignoreCase '1': ASCII letters of the text and its spellings match
                     in either case; '0': byte for byte
  ARGV[9] timeFrom   the range's start, Unix ms ('' for open)
  ARGV[10] timeUntil the range's end, Unix ms, not in it ('' for open)
  ARGV[11] timeScale a score times this is Unix ms (1000: seconds); ''
                     when neither end is given
  ARGV[12] wholeUpTo a match's whole payload is sent too when it is at most
                     this many bytes ('0': never): an every-match removal
                     then removes those bytes as they are, without looking
                     the job up by its id again (lib/layouts/every-match.ts)
  ARGV[13], ...      the text as the payload's JSON may spell it (escaped as
                     PHP's json_encode or Redis's cjson writes it, then as
                     typed), tried in that order

  Returns {next position ('' once the index is done), looked, bytes,
           id ('' when none), name ('' when none), field, value, whole,
           place, ...}
  where bytes is the payloads' bytes the call read (the caller sizes its
  next chunk by them), value is the id, the decoded name, or the payload's
  bytes around the match, and whole the payload ('' when not asked for or
  longer), and place where it was found, as the job page's `near` names it
  (lib/shapes/job-location.ts): `t` and its index from a list's tail, `of`
  and the list's length (`t10of2011`), or `s` and its score in a set (the
  job page looks it up there, lua/laravel/find-job-3.lua);
  or {ErrorCode, key} when KEYS[1] is of another type.
]]
local rcall = redis.call
-- @include layout
-- @include find

local index = KEYS[1]
local kind, position, count, field, window = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
local id, text, ignoreCase = ARGV[6], ARGV[7], ARGV[8] == '1'
local inTime = timeTestOf(ARGV[9], ARGV[10], ARGV[11])
local wholeUpTo = tonumber(ARGV[12])
local spellings = {}
for i = 13, #ARGV do spellings[#spellings + 1] = ARGV[i] end
local spellingMatchers, nameMatchers = textMatchers(spellings, ignoreCase), textMatchers({text}, ignoreCase)
-- An id is equal or nothing, whatever the case rule.
local idMatchers = textMatchers(id ~= '' and {'"id":"' .. id .. '"', '"uuid":"' .. id .. '"'} or {}, false)
-- cjson holds Redis while it decodes: a longer payload's fields are read from their keys' first occurrence.
local DECODE_LIMIT = 65536

local wrongKey = firstWrongTypedKey({index, kind})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local members, nextPosition, read, scores = findChunkOf(kind, index, position, count, inTime)

local function textOf(value)
  return type(value) == 'string' and value or nil
end

-- JSON's two-character escapes, as the byte each stands for.
local SHORT_ESCAPES = {['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t'}

-- A JSON string's bytes between its quotes, decoded: short escapes here
-- (a class name's `\\`), cjson for the rest (`\uXXXX`, or no JSON).
local function decodedString(quoted)
  if not string.find(quoted, '\\[^"\\/bfnrt]') then return (string.gsub(quoted, '\\(.)', SHORT_ESCAPES)) end
  local ok, value = pcall(cjson.decode, '"' .. quoted .. '"')
  return ok and textOf(value) or nil
end

-- The JSON string whose opening quote is `payload`'s byte `quote`, decoded;
-- nil when it does not end.
local function stringAt(payload, quote)
  local at = quote + 1
  while true do
    local stop = string.find(payload, '["\\]', at)
    if not stop then return nil end
    if string.byte(payload, stop) == 34 then return decodedString(string.sub(payload, quote + 1, stop - 1)) end
    -- an escape: its next byte is never the string's end
    at = stop + 2
  end
end

-- The first `"key":"…"` string in `payload`, decoded; nil when there is none.
local function firstStringOf(payload, key)
  local opening = '"' .. key .. '":"'
  local start = string.find(payload, opening, 1, true)
  return start and stringAt(payload, start + #opening - 1)
end

-- The id and name of a payload as Laravel's PHP writes it (every ready and
-- delayed one): Queue::createPayloadArray begins it {"uuid":"…",
-- "displayName":"…", and RedisQueue ends it ,"id":"…","attempts":N}. A
-- JSON object's first and last keys are its top level's, so a payload of
-- that shape names its job there and cjson decodes none of it (Find by name
-- decoded every payload that held the text). nil for any other shape: the
-- copy the pop re-encoded (cjson orders the keys as it likes), another
-- producer's.
local SHAPED_TAIL = 96 -- bytes that hold RedisQueue's ending: its id is Str::random(32)
local function fieldsOfLaravelShape(payload)
  local nameQuote = select(2, string.find(payload, '^{"uuid":"[%x%-]*","displayName":"'))
  local jobId = nameQuote and string.match(string.sub(payload, -SHAPED_TAIL), ',"id":"(%w+)","attempts":%d+}$')
  if not jobId then return nil end
  local name = stringAt(payload, nameQuote)
  return name and jobId, name
end

-- The job's id and name (nil when it has none).
local function fieldsOf(payload)
  local shapedId, shapedName = fieldsOfLaravelShape(payload)
  if shapedId then return shapedId, shapedName end
  if #payload > DECODE_LIMIT then
    return firstStringOf(payload, 'id') or firstStringOf(payload, 'uuid'),
      firstStringOf(payload, 'displayName') or firstStringOf(payload, 'commandName')
  end
  local ok, job = pcall(cjson.decode, payload)
  if not ok or type(job) ~= 'table' then return nil, nil end
  local data = type(job.data) == 'table' and job.data or {}
  return textOf(job.id) or textOf(job.uuid), textOf(job.displayName) or textOf(data.commandName)
end

local function wants(name)
  return field == 'any' or field == name
end

local bytesRead = 0
for _, payload in ipairs(members) do bytesRead = bytesRead + #payload end
local reply = {nextPosition, read, bytesRead}
-- Where the i-th member is: its index from the list's tail (findChunkOf
-- reads members head to tail, the last `position` places from the tail)
-- and the list's length now, read once, at the first match; or its score.
local listLength
local function placeOf(i)
  if kind ~= 'list' then return 's' .. scores[i] end
  listLength = listLength or rcall('LLEN', index)
  return 't' .. ((tonumber(position) or 0) + #members - i) .. 'of' .. listLength
end

local function hit(i, jobId, name, matched, value)
  local payload = members[i]
  local whole = #payload <= wholeUpTo and payload or ''
  local row = {jobId or '', name or '', matched, value, whole, placeOf(i)}
  for _, cell in ipairs(row) do reply[#reply + 1] = cell end
end

local function matchIn(i)
  local payload = members[i]
  if wants('id') and firstMatchIn(payload, idMatchers) then
    local jobId, name = fieldsOf(payload)
    if jobId == id then return hit(i, jobId, name, 'id', id) end
  end
  if not (wants('name') or wants('payload')) then return end
  local at, stop = firstMatchIn(payload, spellingMatchers)
  if not at then return end
  local jobId, name = fieldsOf(payload)
  if wants('name') and firstMatchIn(name, nameMatchers) then return hit(i, jobId, name, 'name', name) end
  if wants('payload') then hit(i, jobId, name, 'payload', (windowAround(payload, at, stop, window))) end
end

for i = 1, #members do matchIn(i) end
return reply
