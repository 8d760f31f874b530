-- Takes `element` out of the list `key` from the end it is near. LREM walks
-- a list from one end until it meets the element, about 50 ns an element:
-- one half a million deep in a list of a million held Redis for 28–50 ms,
-- and 55 ms from the far end (bench/list-removal.ts, docs/benchmarks.md). So the element is looked for
-- within `reach` elements of the tail, where the drivers push and Find
-- reads first, then of the head (LPOS MAXLEN), and LREM walks from the end
-- it was found near: at most three walks of `reach`. An element the drivers
-- write once (a Laravel payload's bytes, a marko or yii2 id) goes as LREM count 0
-- would take it. Returns 1 when it was taken, 0 when the list does not hold
-- it, nil when the list is longer than twice the reach and it is not within
-- reach of either end: it may be deeper, or gone.
local function removeNearAnEnd(key, element, reach)
  local fromEnd = (rcall('LPOS', key, element, 'RANK', -1, 'MAXLEN', reach) and -1)
    or (rcall('LPOS', key, element, 'MAXLEN', reach) and 1)
  if fromEnd then return rcall('LREM', key, fromEnd, element) end
  if rcall('LLEN', key) > 2 * reach then return nil end
  return 0
end
