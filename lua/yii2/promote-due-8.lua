--[[
  YII2 PROMOTE DUE: moves at most ARGV[6] delayed jobs that are due by the
  Redis clock into line, as the driver's own mover would, so a channel
  nobody reserves from shows and runs them in the right order. Call again
  while it reports more due.

  - stock: its mover reads every due id latest first (ZREVRANGEBYSCORE) and
    RPUSHes each onto the tail, so the earliest due ends nearest the tail
    and runs first. Each call here takes the next latest-first slice of
    that same order, so calls one after another (or the driver's mover
    taking the rest) build exactly the list one whole move would: earlier
    slices first would put later jobs in front. Equal due seconds follow
    Redis' text order, as the stock mover's.
  - ng: earliest first, equal due seconds by numeric id, each joining at its
    due second (its stored rank with delayPosition=original), as ng's
    migrate does; then the marker is armed.

  It waits for the stock moving_lock to be free (see movingLockFree).

  KEYS[1] <ch>.waiting       list (the stock line)
  KEYS[2] <ch>.prioritized   sorted set (ng's line)
  KEYS[3] <ch>.delayed       sorted set, scored by the due second
  KEYS[4] <ch>.priorities    hash
  KEYS[5] <ch>.marker        sorted set
  KEYS[6] <ch>.seq           string
  KEYS[7] <ch>.ranks         hash
  KEYS[8] <ch>.moving_lock   string

  ARGV[1..5] the driver (yii2 or yii2-ng) and ng's placing settings, as
             ngSettingsFrom reads them (lua/includes/yii2-line.lua)
  ARGV[6] at most this many jobs (1..1000)

  Returns {moved, still due}, or {ErrorCode, key}.
]]
local rcall = redis.call
-- @include layout
-- @include server-time
-- @include yii2-line

local keys, wrongKey = lineKeysFrom(KEYS)
local ng = ngSettingsFrom(ARGV)
local limit = math.max(1, math.min(1000, math.floor(tonumber(ARGV[6]) or 100)))

if wrongKey then return {ErrorCode.WrongKeyType, wrongKey} end

local nowMs = serverNowMs()
local nowS = math.floor(nowMs / 1000)
if rcall('ZCOUNT', keys.from, '-inf', nowS) == 0 then return {0, 0} end
if not movingLockFree(keys.movingLock) then return movingLockHeld(keys.movingLock) end

local moved = 0
if ng then
  local due = rcall('ZRANGEBYSCORE', keys.from, '-inf', nowS, 'WITHSCORES', 'LIMIT', 0, limit)
  local rows = {}
  for i = 1, #due, 2 do rows[#rows + 1] = {id = due[i], at = tonumber(due[i + 1])} end
  table.sort(rows, function(a, b)
    if a.at ~= b.at then return a.at < b.at end
    return (tonumber(a.id) or 0) < (tonumber(b.id) or 0)
  end)
  for _, row in ipairs(rows) do
    ngEnqueue(keys, ng, row.id, row.at * 1000, ng.delayKeepsPlace)
    rcall('ZREM', keys.from, row.id)
  end
  moved = #rows
  ngArm(keys)
else
  for _, id in ipairs(rcall('ZREVRANGEBYSCORE', keys.from, nowS, '-inf', 'LIMIT', 0, limit)) do
    rcall('RPUSH', keys.waiting, id)
    rcall('ZREM', keys.from, id)
    moved = moved + 1
  end
end
return {moved, rcall('ZCOUNT', keys.from, '-inf', nowS)}
