import type { Route } from 'next';
import type { KeyAddress } from './layouts/key-layout';
import { findTimeText, MAX_FIND_TEXT, type FindRange } from './shapes/find';
import { seenPlaceParam, type SeenPlace } from './shapes/job-location';

// Links are built here so every page spells them the same way. `as Route`
// because typedRoutes cannot check a path built at runtime, and because the
// failed, job and queue pages are written alongside this one.

export const overviewHref = '/' as Route;
export const failedHref = '/failed' as Route;
export const reservationsHref = '/reservations' as Route;
export const doctorHref = '/doctor' as Route;
export const auditHref = '/audit' as Route;
export const trashHref = '/trash' as Route;
export const sessionsHref = '/sessions' as Route;
export const glossaryHref = '/glossary' as Route;
export const connectHref = '/connect' as Route;
export const alertsHref = '/alerts' as Route;

/** One word of the glossary: its definition on `/glossary`. */
export function glossaryTermHref(id: string): Route {
  return `${glossaryHref}#${id}` as Route;
}

/** The page of one queue; any queue name, slashes and markup included, is one path segment. */
export function queueHref(queue: string): Route {
  return `/queues/${encodeURIComponent(queue)}` as Route;
}

/** The reservations of one queue. */
export function reservationsOfQueueHref(queue: string): Route {
  return `${reservationsHref}?${new URLSearchParams({ queue })}` as Route;
}

/** The id of a pending entry's row on the reservations page: its queue, level and entry id, which name it on the whole page. */
export function reservationRowId({ queue, level, entry }: { queue: string; level: string; entry: string }): string {
  return `entry-${encodeURIComponent(queue)}-${level}-${entry}`;
}

/** A job's claim on the reservations page: its queue's reservations, scrolled to its row. */
export function reservationOfJobHref(held: { queue: string; level: string; entry: string }): Route {
  return `${reservationsOfQueueHref(held.queue)}#${reservationRowId(held)}` as Route;
}

/** The failed jobs of one queue. */
export function failedOfQueueHref(queue: string): Route {
  return `/failed?${new URLSearchParams({ queue })}` as Route;
}

/** The delayed timeline of one queue. */
export function delayedOfQueueHref(queue: string): Route {
  return `${queueHref(queue)}/delayed` as Route;
}

/**
 * The queue name in a /queues/{segment} page's params: the segment queueHref
 * wrote, decoded. Next passes a page its params still percent-encoded (route
 * handlers get them decoded), so this decodes exactly once. Null when the
 * segment is not valid percent-encoding, which queueHref never writes.
 */
export function queueFromSegment(segment: string): string | null {
  try {
    const name = decodeURIComponent(segment);
    return name === '' ? null : name;
  } catch {
    return null;
  }
}

/**
 * The queue name in a /queues/{segment} page's generateMetadata params.
 * Next 16.4 hands generateMetadata its params already decoded while the page
 * gets them encoded (vercel/next.js#95343, a regression whose proposed fix
 * encodes them again), so this takes either: a value that is exactly what
 * queueHref writes for some name is read as encoded, anything else as the
 * name itself. Only the tab's title depends on it; a name made of nothing but
 * unreserved characters and `%XX` sequences (`a%2Fb`) would be titled decoded.
 */
export function queueFromMetadataParam(value: string): string {
  const decoded = queueFromSegment(value);
  return decoded !== null && encodeURIComponent(decoded) === value ? decoded : value;
}

/** A job's page by its id: a StaticPHP job's decimal one, or the text id of a layout whose ids are the application's (marko's UUIDs). */
export function jobHref(id: number | string): Route {
  return `/jobs/${encodeURIComponent(String(id))}` as Route;
}

/**
 * A job by its id in its queue (yii2's ids count per channel; other layouts
 * look in that queue alone), and `near` where the page linking to it saw it
 * in the queue's list (a Laravel job deeper than its page's look-up reaches
 * from the head is looked for there).
 */
export function jobOfQueueHref(id: string, queue: string, near?: SeenPlace): Route {
  const params = new URLSearchParams({ queue, ...(near === undefined ? {} : { near: seenPlaceParam(near) }) });
  return `${jobHref(id)}?${params}` as Route;
}

export const layoutHref = '/layout' as Route;

/**
 * The query string that names a key (a UTF-8 name, or its KeyAddress) and a
 * page of it: `name` for a name that is UTF-8, else `raw`, its bytes in
 * base64url; `cursor` (an offset, a SCAN cursor or a stream entry id) unless
 * it is the first page.
 */
export function keyContentsSearch(address: string | KeyAddress, cursor = ''): URLSearchParams {
  const { key, raw } = typeof address === 'string' ? { key: address, raw: null } : address;
  const params = new URLSearchParams(raw === null ? { name: key } : { raw });
  if (cursor !== '') params.set('cursor', cursor);
  return params;
}

/** The page of one key's contents, which its address names (layoutKeyHref). */
export const layoutKeyPath = '/layout/key';

/** One key's contents, a page at a time from `cursor`. */
export function layoutKeyHref(address: string | KeyAddress, cursor = ''): Route {
  return `${layoutKeyPath}?${keyContentsSearch(address, cursor)}` as Route;
}

/** The whole stored value of one field of a job, as a download (app/api/jobs/[id]/fields/[field]). */
export function jobFieldDownloadHref(id: number, field: string): string {
  return `/api/jobs/${id}/fields/${encodeURIComponent(field)}`;
}

/**
 * A job id as text: decimal up to PHP's 64-bit ids (beyond what parseJobId's
 * numbers hold exactly), or an id an application made, such as marko's
 * UUIDs: letters, digits and `-_.:` up to 200 characters, nothing that could
 * reach another key or a page's markup. Null when it is none.
 */
export function parseJobIdText(text: string): string | null {
  return /^[1-9]\d{0,19}$/.test(text) || /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/.test(text) ? text : null;
}

/**
 * A job id as a path or the header's box spells it: a whole number above 0,
 * digits only; null for anything else, including ids too large to be exact
 * in JavaScript (the driver's ids are Redis INCR values).
 */
export function parseJobId(text: string): number | null {
  if (!/^[1-9]\d*$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** A page's search params as Next hands them to a server component, read like URLSearchParams: a name given twice or not at all is null. */
export type PageSearchParams = Record<string, string | string[] | undefined>;

export function singleSearchParams(params: PageSearchParams): { get(name: string): string | null } {
  return {
    get: (name) => {
      const value = params[name];
      return typeof value === 'string' ? value : null;
    },
  };
}

/**
 * The parameter of an address that names the connection it is on: a job's,
 * a search's, a queue's and its lists', a key's, and an alert's link. Ids,
 * queue and key names and searches mean other things on another connection,
 * so a link passed to a colleague whose browser shows another one says so.
 */
export const CONNECTION_PARAM = 'connection';

/** The page at `path` with the single-valued `params` of its address, `CONNECTION_PARAM` naming `connection`. */
export function addressOn(path: string, params: PageSearchParams, connection: string): Route {
  const address = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && name !== CONNECTION_PARAM) address.set(name, value);
  }
  address.set(CONNECTION_PARAM, connection);
  return `${path}?${address}` as Route;
}

/** `href` (a path, its query and fragment) with `CONNECTION_PARAM` naming `connection`, in place of any it named before. */
export function withConnection(href: string, connection: string): Route {
  const address = new URL(href, 'http://queuelens.invalid');
  address.searchParams.delete(CONNECTION_PARAM);
  address.searchParams.append(CONNECTION_PARAM, connection);
  return `${address.pathname}${address.search}${address.hash}` as Route;
}

export const findHref = '/find' as Route;

/** What a search's address names; a search that leaves out ignoreCase is case-sensitive. */
export interface FindSearchFields {
  text: string;
  field: string;
  queue: string | null;
  states: readonly string[];
  ignoreCase?: boolean;
  /** a time range, Unix ms, either open */
  range?: FindRange;
  /** the connection searched, so that a colleague whose browser shows another one is told so rather than shown no match */
  connection?: string;
}

/** A search as the Find page's address and GET /api/find read it (lib/server/find.ts), defaults left out. */
export function findSearchParams(search: FindSearchFields): URLSearchParams {
  const params = new URLSearchParams({ text: search.text });
  if (search.field !== 'any') params.set('field', search.field);
  if (search.queue !== null) params.set('queue', search.queue);
  if (search.states.length > 0) params.set('states', search.states.join(','));
  if (search.ignoreCase === true) params.set('case', 'ignore');
  if (search.range?.from != null) params.set('from', findTimeText(search.range.from));
  if (search.range?.until != null) params.set('until', findTimeText(search.range.until));
  if (search.connection !== undefined) params.set(CONNECTION_PARAM, search.connection);
  return params;
}

/** A search on the Find page, as an address a colleague can open: the same text, field, queue, states, case rule, time range and connection. */
export function findSearchHref(search: FindSearchFields): Route {
  return `${findHref}?${findSearchParams(search)}` as Route;
}

/**
 * The failed list's filter as a search of every state on the Find page, or
 * null when it names no text to look for (a queue alone is browsed, not
 * searched): by the error when it names one, the job's name otherwise.
 */
export function findEveryStateHref(filter: { queue?: string; name?: string; error?: string }): Route | null {
  const [field, text] = filter.error ? ['error', filter.error] : filter.name ? ['name', filter.name] : [null, ''];
  if (field === null || text.length > MAX_FIND_TEXT) return null;
  return findSearchHref({ text, field, queue: filter.queue ?? null, states: [] });
}
