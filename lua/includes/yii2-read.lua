-- Shared by the yii2 read scripts (lua/yii2/read-*.lua): what a page shows
-- of one job of a channel. Needs `rcall` before it.

-- The first `limit` bytes of job `id`'s message and its stored length, or
-- -1 and '' when the hash has no message for it (a dangling id). There is
-- no ranged read of a hash field: Redis copies the value into the script
-- once, but only `limit` bytes of it leave Redis, so a 20 MB message costs
-- a page a prefix, not 20 MB on the wire and in the dashboard's memory.
local function messageHead(messagesKey, id, limit)
  local message = rcall('HGET', messagesKey, id)
  if not message then return -1, '' end
  if #message > limit then return #message, string.sub(message, 1, limit) end
  return #message, message
end

-- What list rows read, and how much: `reader` is {attempts = key,
-- priorities = key, messages = key, headBytes = n, copyLimit = n}.
-- Copying a 20 MB message into the script holds Redis for a quarter of a
-- second, so a list reads the head only of messages up to copyLimit bytes
-- (HSTRLEN costs nothing) and leaves larger ones to the job's own page.

-- One row: {id, score, attempts, priority, message length, message head,
-- head read (1, or 0 when the message is longer than copyLimit)}, '' where
-- the channel stores no attempts, priority or score for the id; length -1
-- when the message is gone.
local function jobRow(reader, id, score)
  local attempts = rcall('HGET', reader.attempts, id) or ''
  local priority = rcall('HGET', reader.priorities, id) or ''
  local stored = rcall('HSTRLEN', reader.messages, id)
  if stored > reader.copyLimit then return {id, score or '', attempts, priority, stored, '', 0} end
  local length, head = messageHead(reader.messages, id, reader.headBytes)
  return {id, score or '', attempts, priority, length, head, 1}
end

-- Rows of the `count` members of a sorted set from rank `start`, lowest
-- score first (the order ng's line runs, and the order reservations expire
-- and delayed jobs come due), each with its score.
local function scoredRows(reader, zsetKey, start, count)
  local rows = {}
  if count <= 0 then return rows end
  local flat = rcall('ZRANGE', zsetKey, start, start + count - 1, 'WITHSCORES')
  for i = 1, #flat, 2 do rows[#rows + 1] = jobRow(reader, flat[i], flat[i + 1]) end
  return rows
end

-- Rows of `count` ids of a list from its tail, the end both drivers pop
-- first: the first row is the last element. Reads only the page's range.
local function tailRows(reader, listKey, offset, count)
  local rows = {}
  if count <= 0 then return rows end
  local ids = rcall('LRANGE', listKey, -(offset + count), -(offset + 1))
  for i = #ids, 1, -1 do rows[#rows + 1] = jobRow(reader, ids[i], nil) end
  return rows
end
