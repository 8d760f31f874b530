--[[
  READ RECENT FAILURES: the failures since a moment, counted by queue, for
  the overview's "failing" mark and its Failed column. Reads only, and
  bounded by ARGV[3]: one ZREVRANGEBYSCORE of at most that many ids, an HGET
  of `queue` each, and one HGET of `error` per queue found, cut inside Redis
  so that a 60,000-byte trace never crosses the wire.

  The job keys are derived from data (ids from queue:failed), so they are
  built from the prefix, which is why the layout needs one server or a
  hash-tagged prefix.

  KEYS[1] queue:failed

  ARGV[1] prefix                for the job keys
  ARGV[2] since                 the oldest score counted, unix seconds
  ARGV[3] limit                 failed ids looked at, newest first
  ARGV[4] bytes                 of each newest error kept, before its first line is taken

  Returns {truncated, groups}:
    truncated                   1 when more than `limit` failed since
    groups                      per queue, in the order of its newest failure:
                                {queue, newest id, newest error's first line, {score, …}}
                                scores newest first; ids whose hash is gone
                                (or is not a hash) are left out
]]
local rcall = redis.call
-- @include layout

local prefix, since, limit, keep = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])

local flat = rcall('ZREVRANGEBYSCORE', KEYS[1], '+inf', since, 'WITHSCORES', 'LIMIT', 0, limit + 1)
local truncated = 0
if #flat > 2 * limit then truncated = 1 end

local groups, byQueue = {}, {}
for i = 1, math.min(#flat, 2 * limit), 2 do
  local id, score = flat[i], flat[i + 1]
  local name = redis.pcall('HGET', jobKey(prefix, id), 'queue')
  if type(name) == 'string' then
    local group = byQueue[name]
    if not group then
      group = {name, id, '', {}}
      byQueue[name] = group
      groups[#groups + 1] = group
    end
    table.insert(group[4], score)
  end
end

for _, group in ipairs(groups) do
  local text = redis.pcall('HGET', jobKey(prefix, group[2]), 'error')
  if type(text) == 'string' then
    local head = string.sub(text, 1, keep)
    group[3] = string.match(head, '^[^\n]*') or ''
  end
end

return {truncated, groups}
