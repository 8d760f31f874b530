--[[
  FIND IN JOBS: one bounded step of Find over one index of job ids (a
  layout whose jobs are hashes: StaticPHP, marko). Reads `count` ids of the
  index from `position`, reads each job's few fields, and returns only the
  jobs the text is in, each with a window of bytes around the match, so a
  pass over a million jobs moves the matches and not the payloads. Read
  only. Byte matching (string.find with plain = true), case-sensitive; or,
  under ignoreCase, each text as a pattern with its ASCII letters in either
  case (lua/includes/find.lua), built once per call. An id is always equal.

  Under a time range, a stream is read from the range's first ms to its
  last (XRANGE), and a sorted set's members out of the range are read but
  not returned (lua/includes/find.lua findChunkOf says why); a list records
  no time, and its caller walks none under a range.

  Job keys are built from ids read out of the index and the prefix in ARGV,
  which is why the layout needs one server (or a hash-tagged prefix).

  KEYS[1] index            a stream of ready ids (field `job`), a list of
                           ready ids, a sorted set of ids, or a hash of
                           failed records (id -> JSON); kind 'ids': the first
                           listed job's hash
  KEYS[2] records          kinds 'indexed-records' and 'listed-records': the
                           hash of failed records (id -> JSON) whose ids
                           KEYS[1], a sorted set scored by the time each
                           failed, indexes, or ARGV[2] lists; any other
                           kind: not read (KEYS[1] again)

  ARGV[1] kind             'stream' | 'list' | 'zset' | 'records' |
                           'indexed-records'; or, to re-check the jobs a
                           search listed before acting on them, 'ids' (job
                           hashes) | 'listed-records'
  ARGV[2] position         stream: the last entry id read ('' to start);
                           list: an offset; zset, records, indexed-records:
                           a SCAN cursor; ids, listed-records: the ids,
                           comma-joined (never a next position)
  ARGV[3] count            ids to read at most
  ARGV[4] jobPrefix        a job's hash is jobPrefix .. id (not for records)
  ARGV[5] state            the index's state; a stream's entries are
                           'ready', or 'reserved' where reservedField is set
  ARGV[6] states           the states wanted, as ',ready,failed,'
  ARGV[7] onlyQueue        the job's queue must be this ('' for any)
  ARGV[8] field            any | id | name | payload | error
  ARGV[9] window           bytes kept on either side of a match
  ARGV[10] queueField      the job's fields (a record's JSON keys) ...
  ARGV[11] nameField       ... '' where the name is read from the payload
  ARGV[12] payloadField
  ARGV[13] errorFields     comma-joined, '' for none
  ARGV[14] reservedField   set (not '' or '0') while a stream entry is held
  ARGV[15] ignoreCase      '1': ASCII letters of the texts match in either
                           case; '0': byte for byte
  ARGV[16] timeFrom        the range's start, Unix ms ('' for open)
  ARGV[17] timeUntil       the range's end, Unix ms, not in it ('' for open)
  ARGV[18] timeScale       a score times this is Unix ms (1000 for seconds,
                           -1000 for Horizon's -microtime); '' when neither
                           end is given
  ARGV[19] texts           how many of the values from ARGV[20] on are
                           texts; the values after them are Lua patterns as
                           given (marko's base64 spellings with the text's
                           letters in either case, built by the caller)
  ARGV[20], ...            the text, then other spellings of it that match
                           as the text (its base64 at each alignment, a
                           Horizon payload's JSON escapes of it), then the
                           patterns

  Returns {next position ('' once the index is done), looked, bytes,
           id, state, queue, name or payload head, field, from, window, ...}
  where `bytes` is how many bytes of job data the call read (the fields
  asked for, a record whole): the caller sizes its next chunk by them
  where `from` is the 1-based byte of the value the window starts at;
  or {ErrorCode, key} when KEYS[1] is of another type.
]]
local rcall = redis.call
-- @include layout
-- @include find

local index = KEYS[1]
local kind, position, count, jobPrefix = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local indexState, states, onlyQueue, field, window = ARGV[5], ARGV[6], ARGV[7], ARGV[8], tonumber(ARGV[9])
local queueField, nameField, payloadField, reservedField = ARGV[10], ARGV[11], ARGV[12], ARGV[14]
local errorFields = {}
for name in string.gmatch(ARGV[13], '[^,]+') do errorFields[#errorFields + 1] = name end
local ignoreCase, timeFrom, timeUntil, textCount = ARGV[15] == '1', ARGV[16], ARGV[17], tonumber(ARGV[19])
local inTime = timeTestOf(timeFrom, timeUntil, ARGV[18])
local texts = {}
for i = 20, 19 + textCount do texts[#texts + 1] = ARGV[i] end
local matchers = textMatchers(texts, ignoreCase)
for i = 20 + textCount, #ARGV do matchers[#matchers + 1] = {pattern = ARGV[i]} end
-- A record larger than this is matched as raw bytes, not decoded (cjson would hold Redis).
local DECODE_LIMIT = 262144
local NAME_HEAD = 1024

local isRecords = kind == 'records' or kind == 'indexed-records' or kind == 'listed-records'
local indexType = ({stream = 'stream', list = 'list', zset = 'zset', records = 'hash', ['indexed-records'] = 'zset', ids = 'hash', ['listed-records'] = 'hash'})[kind]
local wrongKey = firstWrongTypedKey({index, indexType, KEYS[2], isRecords and 'hash' or indexType})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

-- ids read this step, where the next step starts, and how many the index gave
local ids, nextPosition, recordValues, read = {}, '', {}, 0

-- `indexed` ids whose record KEYS[2] holds, each record kept by its id: an
-- id whose record is gone is no failed job, counted as read, not matched.
local function keepRecorded(indexed)
  if #indexed == 0 then return end
  local values = rcall('HMGET', KEYS[2], unpack(indexed))
  for i, id in ipairs(indexed) do
    if values[i] then
      ids[#ids + 1] = id
      recordValues[id] = values[i]
    end
  end
end

if kind == 'ids' or kind == 'listed-records' then
  local listed = {}
  for id in string.gmatch(position, '[^,]+') do listed[#listed + 1] = id end
  read = #listed
  if kind == 'ids' then ids = listed else keepRecorded(listed) end
elseif kind == 'stream' then
  -- A stream entry's id is the ms it was added: a range is read from its first ms to the last entry before its end's ms.
  local first = position ~= '' and '(' .. position or (timeFrom ~= '' and timeFrom or '-')
  local last = timeUntil ~= '' and '(' .. timeUntil .. '-0' or '+'
  -- No entry is before 0-0, and XRANGE refuses it as an exclusive end.
  local entries = timeUntil == '0' and {} or rcall('XRANGE', index, first, last, 'COUNT', count)
  for _, entry in ipairs(entries) do
    local values = entry[2]
    for i = 1, #values, 2 do
      if values[i] == 'job' then ids[#ids + 1] = values[i + 1] end
    end
  end
  if #entries == count then nextPosition = entries[#entries][1] end
  read = #ids
elseif kind == 'indexed-records' then
  local indexed
  indexed, nextPosition, read = findChunkOf('zset', index, position, count, inTime)
  keepRecorded(indexed)
elseif kind == 'records' then
  local scan = rcall('HSCAN', index, position == '' and '0' or position, 'COUNT', count)
  if scan[1] ~= '0' then nextPosition = scan[1] end
  local scanned = scan[2]
  for i = 1, #scanned, 2 do
    ids[#ids + 1] = scanned[i]
    recordValues[scanned[i]] = scanned[i + 1]
  end
  read = #ids
else
  ids, nextPosition, read = findChunkOf(kind, index, position, count, inTime)
end

local function wanted(name)
  return field == 'any' or field == name
end

local function findIn(value)
  return firstMatchIn(value, matchers)
end

-- The fields each job's HMGET asks for, built once: queue, payload,
-- reserved, then the name where it is a field of its own, then the errors.
local hashFields = {queueField, payloadField, reservedField ~= '' and reservedField or queueField}
if nameField ~= '' then hashFields[#hashFields + 1] = nameField end
local firstError = #hashFields + 1
for _, name in ipairs(errorFields) do hashFields[#hashFields + 1] = name end

-- Bytes of job data read so far (the reply's third cell).
local bytesRead = 0

-- The job's fields as {queue, name, payload, errors..., reserved}; nil when it is gone.
local function jobOf(id)
  if isRecords then
    local record = recordValues[id]
    bytesRead = bytesRead + #record
    if #record <= DECODE_LIMIT then
      local ok, decoded = pcall(cjson.decode, record)
      if ok and type(decoded) == 'table' then
        local function text(name) return type(decoded[name]) == 'string' and decoded[name] or nil end
        local errors = {}
        for _, name in ipairs(errorFields) do errors[#errors + 1] = text(name) end
        return {queue = text(queueField) or '', payload = text(payloadField) or '', errors = errors}
      end
    end
    return {queue = '', payload = record, errors = {}}
  end
  local values = rcall('HMGET', jobPrefix .. id, unpack(hashFields))
  for i = 1, #hashFields do
    if values[i] then bytesRead = bytesRead + #values[i] end
  end
  if not values[1] then return nil end
  local errors = {}
  for i = firstError, #hashFields do errors[#errors + 1] = values[i] or nil end
  local reserved = reservedField ~= '' and values[3] or ''
  return {
    queue = values[1], payload = values[2] or '', errors = errors,
    name = nameField ~= '' and (values[4] or '') or nil,
    reserved = reserved ~= '' and reserved ~= '0',
  }
end

local reply = {nextPosition, read, 0}
local function hit(id, state, job, name, value, at, stop)
  local cut, from = windowAround(value, at, stop, window)
  local head = job.name or string.sub(job.payload, 1, NAME_HEAD)
  local rows = {id, state, job.queue, head, name, from, cut}
  for _, cell in ipairs(rows) do reply[#reply + 1] = cell end
end

for _, id in ipairs(ids) do
  local job = jobOf(id)
  if job and (onlyQueue == '' or job.queue == onlyQueue) then
    local state = indexState
    if kind == 'stream' and job.reserved then state = 'reserved' end
    if string.find(states, ',' .. state .. ',', 1, true) then
      local at, stop
      if wanted('id') and id == texts[1] then
        hit(id, state, job, 'id', id, 1, #id)
      else
        local matched = false
        if wanted('name') and job.name then
          at, stop = findIn(job.name)
          if at then hit(id, state, job, 'name', job.name, at, stop); matched = true end
        end
        if not matched and (wanted('payload') or (wanted('name') and not job.name)) then
          at, stop = findIn(job.payload)
          if at then hit(id, state, job, job.name and 'payload' or (wanted('payload') and 'payload' or 'name'), job.payload, at, stop); matched = true end
        end
        if not matched and wanted('error') then
          for _, value in ipairs(job.errors) do
            at, stop = findIn(value)
            if at then hit(id, state, job, 'error', value, at, stop); break end
          end
        end
      end
    end
  end
end
reply[3] = bytesRead
return reply
