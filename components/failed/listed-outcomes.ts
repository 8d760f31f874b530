/**
 * What an action on listed jobs (the failed list's selection, Find's
 * matches) did to each of them, by id, as the scripts answered for its
 * batch: a page that lists them says it on each row.
 */
export type ListedOutcome =
  | 'retried'
  | 'forgotten'
  | 'removed'
  | 'no longer failed'
  | 'gone'
  | 'not retried'
  /** the layout refused to remove it (a Laravel job too deep in a long list to take out within a bounded call) */
  | 'not removed'
  | 'moved on'
  | 'no longer matched'
  /** a forget answers how many it forgot, not which: where some of a batch were no longer failed, the others cannot be told apart */
  | 'forgotten or no longer failed';

/** Each of `ids` by the first of `outcomes` that names it, else `otherwise`. */
export function outcomesOf(
  ids: readonly string[],
  outcomes: readonly (readonly [ListedOutcome, readonly string[]])[],
  otherwise: ListedOutcome,
): Map<string, ListedOutcome> {
  const byId = new Map<string, ListedOutcome>();
  for (const [outcome, named] of outcomes) for (const id of named) if (!byId.has(id)) byId.set(id, outcome);
  return new Map(ids.map((id) => [id, byId.get(id) ?? otherwise]));
}
