-- Shared by the yii2 read scripts (lua/yii2-read-*.lua): what a page shows
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

-- One row of a list page: {id, score, attempts, priority, length, head},
-- '' where the channel stores no attempts, priority or score for the id.
local function jobRow(id, score, attemptsKey, prioritiesKey, messagesKey, limit)
  local length, head = messageHead(messagesKey, id, limit)
  local attempts = rcall('HGET', attemptsKey, id) or ''
  local priority = rcall('HGET', prioritiesKey, id) or ''
  return {id, score or '', attempts, priority, length, head}
end

-- A page of a list's ids from its tail, the end both drivers pop first:
-- place 1 is the last element. Reads only the page's range.
local function tailFirst(listKey, offset, limit)
  local ids = rcall('LRANGE', listKey, -(offset + limit), -(offset + 1))
  local reversed = {}
  for i = #ids, 1, -1 do reversed[#reversed + 1] = ids[i] end
  return reversed
end
