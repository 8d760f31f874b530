--[[
  LARAVEL FIND JOB: one bounded step of looking one job of one queue up by
  its id, with its payload's exact bytes where it is found. Laravel's jobs
  have no key of their own: each element of the ready list and the
  reserved and delayed sets is the whole payload, so the job is found by
  its id inside the payloads. The caller repeats the step from where the
  last one stopped until the job is found or every structure is walked, so
  that no call reads more than `budget` payloads or about `byteBudget`
  bytes (each element read becomes a Lua string: 2,000 payloads of 1 KB
  read in one call held Redis for 5 ms). Reads only.

  The walk: the reserved set, the delayed set, the ready list from its
  head, at most `limit` elements of each (one further down a longer
  structure is reported unsearched); then, when the walk took more than
  one step, the reserved set again. Every single move of a job between two
  steps is then met: a release (reserved to delayed) moves it ahead of the
  walk, a migrate (delayed or expired reserved to the list's tail) too, and
  a pop (the list's head to the reserved set) into the set looked at
  again. A step goes on into the next structure when it has budget left,
  so a small queue is looked at whole in one consistent call, which needs
  no second look.

  The ready list is walked by its last element read (`anchor`), not by an
  offset: a pop between two steps moves every element towards the head,
  and an offset would skip as many. The next step starts after wherever
  the anchor is now (LPOS, no further than where it was); an anchor no
  longer there was popped, with all before it, so the walk goes on from
  the head. The sets are walked with ZSCAN, whose cursor no removal moves.

  Where the caller saw the job in the ready list (`nearFrom`, `nearIndex`:
  a page of the list counts from its head, Find from its tail), the list is
  walked instead outward from that place, counting places from the tail,
  which a pop does not move: away from the tail from NEAR_AFTER places
  nearer it than that place, then towards the tail from there, `limit`
  elements each, so that a job deeper than `limit` is found where it was
  seen. A place counted from the tail moves with pushes alone (a pop moves
  none); where the caller read the list's length with the place
  (`nearLength`), a list longer now had at least as many pushes since, and
  the place is counted that much further from the tail. The pushes that
  pops balanced since are not seen: a job is found while they are under
  `limit` - NEAR_AFTER. Without the length, a place seen from the head is
  counted from the list's length now, which is off by the pops since, and
  one seen from the tail by the pushes since.
  Jobs removed between it and the tail move it nearer the tail: found while
  fewer than `limit` + NEAR_AFTER were. Each step after the first goes on
  from its last element read wherever that is now (`nearResume`), and the
  walk towards the tail from the first element the walk away read
  (`boundary`), so that fewer than NEAR_SHIFT pushes and removals nearer
  the tail between two steps skip nothing; a pop of the job itself is met
  by the second look.

  Where the caller saw it in a sorted set at a score (`nearFrom` 'score': a
  delayed job's due second, a reservation's end), each set's walk first
  reads the members at that score (up to SAME_SCORE of them, within the
  step's budget), so that a job of a set larger than `limit`, which ZSCAN
  reads in no order, is found.

  The needles are `"id":"{id}"` and `"uuid":"{id}"`, built by the caller from
  an id of letters, digits and dashes; inside `data.command` every quote is
  escaped, so only a key of the payload's JSON matches.

  KEYS[1] {prefix}queues:{queue}            list, ready payloads
  KEYS[2] {prefix}queues:{queue}:reserved   sorted set, payloads scored by the second the reservation expires
  KEYS[3] {prefix}queues:{queue}:delayed    sorted set, payloads scored by the second they may run

  ARGV[1] `"id":"{id}"`
  ARGV[2] `"uuid":"{id}"`
  ARGV[3] limit        elements of each structure looked at, at most
  ARGV[4] budget       elements this step reads, at most
  ARGV[5] byteBudget   bytes this step reads, about: it stops after the
                       batch that reaches them
  ARGV[6] structure    where the step starts: 1 the reserved set, 2 the
                       delayed set, 3 the ready list (from its head, or near
                       a place seen away from the tail), 4 the ready list
                       near a place seen towards the tail, 5 the reserved
                       set again
  ARGV[7] looked       elements of that structure the steps before read
  ARGV[8] position     the ready list: the anchor's index when it was read
                       ('' at the start), or near a place seen, the place
                       from the tail read next; a set: the ZSCAN cursor
                       ('' at the start)
  ARGV[9] anchor       the ready list: the last element read ('' at the start)
  ARGV[10] cut         '1' when a structure walked before was longer than `limit`
  ARGV[11] nearFrom    'head' | 'tail': where the caller saw the job in the
                       ready list, counted from; 'score': its score in a
                       set; '' when it saw none
  ARGV[12] nearIndex   that place, 0 at the head (or the tail); or the score
  ARGV[13] perElement  bytes per element the steps before read (0: none yet)
  ARGV[14] boundary    near a place seen: the first element the walk away
                       from the tail read ('' until then), where the walk
                       towards the tail goes on from
  ARGV[15] nearLength  the ready list's length where the caller saw the
                       job in it ('' when not known)

  Returns {'ready', index from the head, payload, now, the list's length} or
  {'reserved' | 'delayed', score, payload, now} where it is found;
  {'more', structure, looked, position, anchor, cut, perElement, boundary} when the
  step's budget ran out first; {'none', complete (1 when no structure was cut), now} once
  every structure is walked; or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time

local readyKey, reservedKey, delayedKey = KEYS[1], KEYS[2], KEYS[3]
local idNeedle, uuidNeedle = ARGV[1], ARGV[2]
local limit, budget, byteBudget = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local structure, looked, position, anchor, cut = tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8], ARGV[9], ARGV[10] == '1'
local nearFrom, nearIndex, perElement = ARGV[11], tonumber(ARGV[12]), tonumber(ARGV[13]) or 0
local boundary, nearLength = ARGV[14], tonumber(ARGV[15])
local seenInList = nearFrom == 'head' or nearFrom == 'tail'

local wrongKey = firstWrongTypedKey({readyKey, 'list', reservedKey, 'zset', delayedKey, 'zset'})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

-- Elements one command reads at most, and at first: the first read of a
-- look-up tells how large the payloads are (the steps after it are told,
-- `perElement`), and each later one reads no more than the byte budget
-- left would hold of payloads that size.
local BATCH, FIRST_BATCH = 25, 1
local readCount, readBytes = 0, 0

-- `most`: BATCH, or where each command seeks its place afresh (the walk
-- near a place deep in a long list: LRANGE of one element half a million
-- deep took 0.07 ms median and up to 0.45 ms, bench/list-removal.ts), the
-- step's whole budget.
local function batchSize(leftInStructure, most)
  local size = most
  local known = readBytes > 0 and readBytes / readCount or perElement
  if known > 0 then size = math.floor((byteBudget - readBytes) / known) elseif readCount == 0 then size = FIRST_BATCH end
  return math.max(1, math.min(most, size, budget - readCount, leftInStructure))
end

local function holds(payload)
  return string.find(payload, idNeedle, 1, true) or string.find(payload, uuidNeedle, 1, true)
end

local function spent()
  return readCount >= budget or readBytes >= byteBudget
end

local function account(payload)
  readCount = readCount + 1
  readBytes = readBytes + #payload
end

-- Where the next ready element to read is now: after the anchor, or the head when it is gone.
local function readyStart()
  if anchor == '' then return 0 end
  local at = rcall('LPOS', readyKey, anchor, 'MAXLEN', tonumber(position) + 1)
  return at and at + 1 or 0
end

-- Each walk answers 'found' (with where and the payload), 'spent' (this
-- step's budget ran out: `position` and `anchor` say where to go on) or
-- 'done' (the structure is walked, or `limit` of it: then `cut`).

-- Places nearer the tail than where the job was seen that the walk away from the tail reads too (a removal behind it moves it that way).
local NEAR_AFTER = 100

-- Places either side of where the last element read was that a step looks
-- for it at, when it is no longer there: the pushes and removals nearer the
-- tail in the moment between two steps of one look-up (16 removals in
-- flight, lib/layouts/line-repairs.ts, move it 15).
local NEAR_SHIFT = 25

-- The list walked near a place seen counts its places from the tail (0 the
-- tail), and reads either away from it (direction 1) or towards it (-1);
-- `position` is the place it reads next. At a step after the first, it goes
-- on from the last element read (`anchor`), wherever that is now: at its
-- place still (LINDEX), or within NEAR_SHIFT of it (one LRANGE). Pushes and
-- removals nearer the tail than the walk move what it has not read by as
-- many places, and an offset alone would read some again or skip them. An
-- anchor not found there was removed, or moved further: the walk then steps
-- back as many places as it looked on each side, to read them again rather
-- than skip them.
local function nearResume(direction)
  local next = tonumber(position)
  if anchor == '' then return next end
  local was = next - direction
  local at = rcall('LINDEX', readyKey, -(was + 1))
  if at then account(at) end
  if at == anchor then return next end
  -- Half the step's budget at most (fewer places of larger payloads), so that the walk goes on in the step.
  local known = math.max(1, readCount > 0 and readBytes / readCount or perElement)
  local shift = math.max(0, math.min(NEAR_SHIFT, math.floor(budget / 4), math.floor(byteBudget / (4 * known))))
  local nearest = math.max(0, was - shift)
  local window = rcall('LRANGE', readyKey, -(was + shift + 1), -(nearest + 1))
  local found
  for i = #window, 1, -1 do
    account(window[i])
    local place = nearest + #window - i
    if window[i] == anchor and (not found or math.abs(place - was) < math.abs(found - was)) then found = place end
  end
  if found then return found + direction end
  return math.max(0, next - direction * shift)
end

-- The place from the tail the job was seen at, moved by the pushes since
-- that the list's length tells (`nearLength`), where it is known.
local function seenFromTail(length)
  if not nearLength then return nearFrom == 'tail' and nearIndex or length - 1 - nearIndex end
  local seen = nearFrom == 'tail' and nearIndex or nearLength - 1 - nearIndex
  return seen + math.max(0, length - nearLength)
end

-- A walk near a place seen: away from the tail from NEAR_AFTER places
-- nearer it than that place, then (structure READY_NEARER_TAIL) towards the
-- tail from there, each at most `limit` elements. The place a job was seen
-- at is found while fewer than `limit` - NEAR_AFTER pushes since were not
-- told by the list's growth, or fewer than `limit` + NEAR_AFTER jobs were
-- removed nearer the tail.
local function walkReadyNear(direction)
  local length = rcall('LLEN', readyKey)
  local read
  if position == '' then
    read = math.max(0, seenFromTail(length) - NEAR_AFTER)
    if direction < 0 then read = read - 1 end
  else
    read = nearResume(direction)
  end
  -- Places past the list's head hold nothing to read.
  if direction < 0 then read = math.min(read, length - 1) end
  position = tostring(read)
  while true do
    if direction < 0 and read < 0 then return 'done' end
    if looked >= limit then
      cut = cut or (direction > 0 and length > read) or (direction < 0 and read >= 0)
      return 'done'
    end
    if spent() then return 'spent' end
    local wanted = batchSize(limit - looked, budget)
    if direction < 0 then wanted = math.min(wanted, read + 1) end
    -- The places read, nearest the tail first: [read, read + wanted) away, [read - wanted + 1, read] towards it.
    local nearest = direction > 0 and read or read - wanted + 1
    local batch = rcall('LRANGE', readyKey, -(nearest + wanted), -(nearest + 1))
    local first, last, stepBy = #batch, 1, -1
    if direction < 0 then first, last, stepBy = 1, #batch, 1 end
    for i = first, last, stepBy do
      account(batch[i])
      if holds(batch[i]) then return 'found', length - 1 - (nearest + #batch - i), batch[i] end
    end
    looked, read = looked + #batch, read + direction * #batch
    if #batch > 0 then anchor = direction > 0 and batch[1] or batch[#batch] end
    if direction > 0 and boundary == '' and #batch > 0 then boundary = batch[#batch] end
    position = tostring(read)
    if #batch < wanted then return 'done' end
  end
end

local function walkReady()
  if seenInList then return walkReadyNear(1) end
  local first = readyStart()
  while true do
    if looked >= limit then
      cut = cut or rcall('LLEN', readyKey) > first
      return 'done'
    end
    if spent() then return 'spent' end
    local wanted = batchSize(limit - looked, BATCH)
    local batch = rcall('LRANGE', readyKey, first, first + wanted - 1)
    for i, payload in ipairs(batch) do
      account(payload)
      if holds(payload) then return 'found', first + i - 1, payload end
    end
    if #batch == 0 then return 'done' end
    looked, first = looked + #batch, first + #batch
    position, anchor = tostring(first - 1), batch[#batch]
    if #batch < wanted then return 'done' end
  end
end

-- Members of one score the look at a seen score reads at most (jobs delayed alike in one second share theirs).
local SAME_SCORE = 50

-- The member at the score the caller saw, if any: its payload and score.
local function atSeenScore(key)
  local members = rcall('ZRANGEBYSCORE', key, nearIndex, nearIndex, 'WITHSCORES', 'LIMIT', 0, SAME_SCORE)
  for i = 1, #members, 2 do
    if spent() then return nil end
    account(members[i])
    if holds(members[i]) then return members[i], members[i + 1] end
  end
end

local function walkSet(key)
  if position == '' and nearFrom == 'score' then
    local member, score = atSeenScore(key)
    if member then return 'found', score, member end
    -- The walk's start, the look at the score done ('' would look again).
    position = '0'
  end
  local cursor = position == '' and '0' or position
  repeat
    if looked >= limit then
      cut = true
      return 'done'
    end
    if spent() then
      position = cursor
      return 'spent'
    end
    local scan = rcall('ZSCAN', key, cursor, 'COUNT', batchSize(limit - looked, BATCH))
    cursor = scan[1]
    local members = scan[2]
    for i = 1, #members, 2 do
      account(members[i])
      if holds(members[i]) then return 'found', members[i + 1], members[i] end
    end
    looked = looked + #members / 2
  until cursor == '0'
  return 'done'
end

-- A walk begun by this very call reads every structure in it consistently: no second look.
local wholeInOneCall = structure == 1 and looked == 0 and position == ''
local PLACES = {{'reserved', reservedKey}, {'delayed', delayedKey}, {'ready', readyKey}, {'ready', readyKey}, {'reserved', reservedKey}}
local READY, READY_NEARER_TAIL, SECOND_LOOK = 3, 4, 5
while structure <= #PLACES and not (wholeInOneCall and structure == SECOND_LOOK) do
  local place = PLACES[structure]
  local state, at, payload = 'done', nil, nil
  if structure == READY then
    state, at, payload = walkReady()
  elseif structure == READY_NEARER_TAIL then
    if seenInList then state, at, payload = walkReadyNear(-1) end
  else
    state, at, payload = walkSet(place[2])
  end
  if state == 'found' then
    local reply = {place[1], at, payload, serverNow()}
    if structure == READY or structure == READY_NEARER_TAIL then reply[5] = rcall('LLEN', readyKey) end
    return reply
  end
  if state == 'spent' then
    local size = readCount > 0 and math.ceil(readBytes / readCount) or perElement
    return {'more', structure, looked, position, anchor, cut and '1' or '0', size, boundary}
  end
  if structure == READY and boundary ~= '' then
    -- Towards the tail from the first element the walk away read, wherever
    -- that is now: `looked` places nearer the tail than where that walk
    -- stopped, unless removals among them moved it (nearResume finds it).
    structure, looked, position, anchor, boundary = READY_NEARER_TAIL, 0, tostring(tonumber(position) - looked - 1), boundary, ''
  else
    structure, looked, position, anchor = structure + 1, 0, '', ''
  end
end
return {'none', cut and 0 or 1, serverNow()}
