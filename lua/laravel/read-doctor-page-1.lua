--[[
  LARAVEL READ DOCTOR PAGE: reads a page of one structure of a queue (the
  ready list, or the delayed or reserved set, by rank) and tries on each
  payload what Laravel's pop does to it (Illuminate\Queue\LuaScripts::pop:
  cjson.decode, attempts + 1, cjson.encode), with the same cjson, so that a
  payload the pop would fail on is found before a worker loses it. Read
  only: the pop's steps run on a decoded copy and nothing is written.

  Payloads are read one at a time and the page stops after the one that
  takes it past `byteBudget` bytes (it reads one at least), so a page of
  large payloads stays short; the caller goes on from `offset + examined`.

  KEYS[1] {prefix}queues:{queue}, or its :delayed or :reserved set

  ARGV[1] 'list' or 'zset'                 what KEYS[1] is
  ARGV[2] offset                           rank to start at (0: the head, or the lowest score)
  ARGV[3] count                            payloads read at most
  ARGV[4] byteBudget                       payload bytes after which the page stops
  ARGV[5] overdueBefore                    for a zset: members scored before it are
                                           counted as overdue; '' counts none
  ARGV[6] listOverdue                      '1': overdue members the pop can take are
                                           listed too, not only counted

  Returns {examined, ended, overdue, problem, id, score, digest, ...}:
  ended is 1 when the page reached the structure's end; a row per
  payload the pop fails on (problem: the Lua error, as a worker's log
  shows it, without the script's line), and with listOverdue a row per
  overdue payload it can take (problem ''). id is the payload's id, else
  its uuid (as the job page finds a job), else '' ; score is the member's
  score ('' in the list); digest is the payload's SHA-1 when it has no id
  (what tells one such payload from another). {ErrorCode.WrongKeyType, key}
  when KEYS[1] is of another type.
]]
local rcall = redis.call
-- @include layout

local key, kind = KEYS[1], ARGV[1]
local offset, count, byteBudget = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local overdueBefore, listOverdue = tonumber(ARGV[5]), ARGV[6] == '1'

local wrongKey = firstWrongTypedKey({key, kind})
if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

-- What LuaScripts::pop does to the payload it takes, on a copy.
local function popFailure(payload)
  local ok, message = pcall(function()
    local reserved = cjson.decode(payload)
    reserved['attempts'] = reserved['attempts'] + 1
    cjson.encode(reserved)
  end)
  if ok then return '' end
  return (string.gsub(tostring(message), '^[^:]*:%d+: ', ''))
end

local function idOf(payload)
  local ok, decoded = pcall(cjson.decode, payload)
  if ok and type(decoded) == 'table' then
    if type(decoded.id) == 'string' then return decoded.id end
    if type(decoded.uuid) == 'string' then return decoded.uuid end
    return ''
  end
  -- Not JSON: the id the job page's search would find it by (lua/laravel/find-job-3.lua), if any.
  return string.match(payload, '"id":"([%w%-]+)"') or string.match(payload, '"uuid":"([%w%-]+)"') or ''
end

local rows, examined, overdue, bytes, ended = {}, 0, 0, 0, 0
while examined < count and bytes <= byteBudget do
  local at = offset + examined
  local payload, score
  if kind == 'list' then
    payload = rcall('LRANGE', key, at, at)[1]
  else
    local pair = rcall('ZRANGE', key, at, at, 'WITHSCORES')
    payload, score = pair[1], pair[2]
  end
  if not payload then
    ended = 1
    break
  end
  examined = examined + 1
  bytes = bytes + #payload
  local problem = popFailure(payload)
  local isOverdue = overdueBefore ~= nil and score ~= nil and tonumber(score) < overdueBefore
  if isOverdue then overdue = overdue + 1 end
  if problem ~= '' or (isOverdue and listOverdue) then
    local id = idOf(payload)
    rows[#rows + 1] = problem
    rows[#rows + 1] = id
    rows[#rows + 1] = score or ''
    rows[#rows + 1] = id == '' and redis.sha1hex(payload) or ''
  end
end

local reply = {examined, ended, overdue}
for _, value in ipairs(rows) do reply[#reply + 1] = value end
return reply
