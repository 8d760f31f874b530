/** The trash's shapes, for the layouts that keep one, the pages and the CLI alike. */

/** How the trash is kept: QUEUELENS_TRASH_SECONDS, QUEUELENS_TRASH_MAX and QUEUELENS_TRASH_MAX_BYTES (lib/dashboard/trash-settings.ts). */
export interface TrashSettings {
  /** QUEUELENS_PREFIX: the trash's keys are QueueLens's own */
  readonly dashboardPrefix: string;
  /** how long a trashed job is kept; 0 keeps nothing (a forget deletes, as the driver does) */
  readonly keepSeconds: number;
  /** how many trashed jobs are kept at most; the oldest go first */
  readonly maxEntries: number;
  /** how many bytes of Redis memory the trashed jobs of one driver prefix take at most; the oldest go first */
  readonly maxBytes: number;
}

/** A forget or remove as the trash records it: the settings, and who did it from where. */
export interface TrashWrite extends TrashSettings {
  /** the operator as the audit log names them */
  readonly who: string;
  /** where it was done: `dashboard` or `cli` */
  readonly via: string;
}

/** Where a trashed job was taken from, as its layout's restore puts it back. */
export const TRASHED_FROM = ['failed', 'ready', 'delayed', 'reserved'] as const;
export type TrashedFrom = (typeof TRASHED_FROM)[number];

/** One trashed job as the Trash page lists it. */
export interface TrashRow {
  id: string;
  name: string;
  queue: string;
  from: TrashedFrom | string;
  /** the failed or delayed set's score it had (unix seconds); '' where none */
  score: string;
  /** the job's last error, where it had one */
  error: string;
  who: string;
  via: string;
  /** unix seconds it was trashed */
  trashedAt: number;
  /** unix seconds it expires */
  expiresAt: number;
}

export interface TrashPage {
  rows: TrashRow[];
  /** entries in the index that have not expired */
  total: number;
  keepSeconds: number;
  maxEntries: number;
  maxBytes: number;
  /** Redis memory the kept jobs take, as measured when each was kept (expired ones included until the next forget drops them) */
  bytes: number;
  /** the Redis server's unix second at the read, which expiry is measured against */
  now: number;
}

/** What the Trash page narrows its rows to; '' matches every row. */
export interface TrashFilter {
  /** a part of the queue's (a yii2 channel's) name */
  readonly queue: string;
  /** where it was taken from, exactly: a TrashedFrom */
  readonly from: string;
  /** a part of the operator's name */
  readonly who: string;
}

export const NO_TRASH_FILTER: TrashFilter = { queue: '', from: '', who: '' };

/** The filter a page's query string asks for: a place that is none of TRASHED_FROM matches every place. */
export function trashFilterOf(params: { get(name: string): string | null }): TrashFilter {
  const from = params.get('from') ?? '';
  return { queue: params.get('queue') ?? '', from: (TRASHED_FROM as readonly string[]).includes(from) ? from : '', who: params.get('who') ?? '' };
}

/** The query string of `filter` and `page` (page 1 and empty fields left out), for the pager's links. */
export function trashQuery(filter: TrashFilter, page: number): string {
  const params = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ''));
  if (page > 1) params.set('page', String(page));
  return params.size > 0 ? `?${params}` : '';
}

export function isTrashFiltered(filter: TrashFilter): boolean {
  return filter.queue !== '' || filter.from !== '' || filter.who !== '';
}

/** Whether a trashed job kept from `queue`, taken `from` there by `who`, is one `filter` shows. */
export function matchesTrashFilter(filter: TrashFilter, where: { queue: string; from: string; who: string }): boolean {
  return where.queue.includes(filter.queue) && (filter.from === '' || where.from === filter.from) && where.who.includes(filter.who);
}

/** What a restore did with one id; every outcome but `restored` leaves the trash as it was. */
export type RestoreOutcome = 'restored' | 'gone' | 'id-taken' | 'unique-taken' | 'unsupported';

/** What a restore did with one listed id, and the queue its trash entry says it was taken from ('' when the entry is gone or names none). */
export interface RestoredJob {
  id: string;
  outcome: RestoreOutcome;
  queue: string;
}

/** Why a restore was refused, in the words the pages and the CLI show. */
export function describeRestoreRefusal(id: string, outcome: Exclude<RestoreOutcome, 'restored'>): string {
  switch (outcome) {
    case 'gone':
      return `Job ${id} is not in the trash: it expired, was restored already, or was never kept`;
    case 'id-taken':
      return `Job ${id} was not restored: its id has been taken by another job meanwhile`;
    case 'unique-taken':
      return `Job ${id} was not restored: its unique key is held by another live job meanwhile`;
    case 'unsupported':
      return `Job ${id} was not restored: it was kept from a place this layout cannot put it back`;
  }
}
