-- Promotion as RESERVE does it (the spec's step 1): at most `limit` ids due
-- by `now`, soonest first, each XADDed to its priority's stream with the
-- hash's entry field pointing at the new entry and its level registered in
-- q:{queue}:levels. An id whose hash is gone has nothing left to run and is
-- only removed from the delayed set (a key of another type stays for the
-- doctor to report). Needs the layout include before it.
--
-- Every stream it will write is type-checked before the first write, so a
-- damaged stream refuses the whole batch instead of promoting half of it.
-- Returns {promoted = {ids}, vanished = {ids}} or {wrongKey = key}.
local function promoteDue(delayedKey, levelsKey, prefix, queue, now, limit)
  local plan = {}
  for _, id in ipairs(rcall('ZRANGEBYSCORE', delayedKey, '-inf', now, 'LIMIT', 0, limit)) do
    local job = jobKey(prefix, id)
    if rcall('TYPE', job).ok == 'hash' then
      local level = levelOf(rcall('HGET', job, 'priority'))
      local stream = streamKey(prefix, queue, level)
      local wrongKey = firstWrongTypedKey({stream, 'stream'})
      if wrongKey then return {wrongKey = wrongKey} end
      plan[#plan + 1] = {id = id, job = job, level = level, stream = stream}
    else
      plan[#plan + 1] = {id = id}
    end
  end

  local promoted, vanished = {}, {}
  for _, step in ipairs(plan) do
    rcall('ZREM', delayedKey, step.id)
    if step.job then
      rcall('HSET', step.job, 'entry', rcall('XADD', step.stream, '*', 'job', step.id))
      rcall('ZADD', levelsKey, step.level, step.level)
      promoted[#promoted + 1] = step.id
    else
      vanished[#vanished + 1] = step.id
    end
  end
  return {promoted = promoted, vanished = vanished}
end
