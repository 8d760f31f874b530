/**
 * Recognising queue layouts by the names and types of keys, without Redis:
 * what a key's name could be in each layout (candidatesOf), a running tally
 * of the candidates whose Redis type fitted (built by detect.ts a SCAN step
 * at a time, merged by whoever walks: the CLI, or the Connect page in the
 * browser), and what the tally amounts to (readDetection). Plain data all
 * the way, so a tally can cross from a server action to the page and back.
 */
import type { LayoutName } from '../layouts/adapter';

/**
 * The key families; whether a yii2 channel is redis-ng's is told from the
 * keys it has. Laravel's queue keys are marko's shape without its job hashes
 * and failed store; Laravel Horizon's keys, under a prefix of their own, are
 * no layout but tell a Laravel find where Horizon keeps its failed jobs.
 */
export type LayoutFamily = 'staticphp' | 'yii2' | 'marko' | 'horizon';

/** The Redis type a key of a role has (TYPE's answer). */
export type KeyType = 'string' | 'hash' | 'list' | 'set' | 'zset' | 'stream';

/** One way to read a key's name: the layout, its prefix or channel, what the key would be there, and the type it must then have. */
export interface KeyCandidate {
  family: LayoutFamily;
  /** a StaticPHP or marko prefix, or a yii2 channel */
  base: string;
  role: string;
  type: KeyType;
  /** the queue the key belongs to, when its name says */
  queue?: string;
}

const YII2_ROLES: Readonly<Record<string, KeyType>> = {
  message_id: 'string',
  messages: 'hash',
  waiting: 'list',
  delayed: 'zset',
  reserved: 'zset',
  attempts: 'hash',
  moving_lock: 'string',
  prioritized: 'zset',
  priorities: 'hash',
  ranks: 'hash',
  seq: 'string',
  marker: 'zset',
};
/** Keys only redis-ng writes (shared/spec/yii2-queue-redis-layout.md §1; `seq` is `<ch>.seq`, a StaticPHP `seq` has no dot before it). */
const YII2_NG_ROLES = new Set(['prioritized', 'priorities', 'ranks', 'seq', 'marker']);
const YII2_KEY = new RegExp(`^(.+)\\.(${Object.keys(YII2_ROLES).join('|')})$`, 's');

/** The StaticPHP keys with a fixed name after the prefix (lib/layouts/staticphp/keys.ts). */
const STATICPHP_FIXED: readonly (readonly [string, string, KeyType])[] = [
  ['queues', 'queues', 'set'],
  ['seq', 'seq', 'string'],
  ['failed', 'failed', 'zset'],
  ['demo:runs', 'demoRuns', 'list'],
];
const MARKO_FIXED: readonly (readonly [string, string, KeyType])[] = [
  ['failed_jobs', 'failedJobs', 'hash'],
  ['failed_jobs:index', 'failedIndex', 'zset'],
];

/** Horizon's index sorted sets (laravel/horizon src/Repositories/RedisJobRepository.php), by their names after its prefix. */
const HORIZON_FIXED: readonly (readonly [string, string, KeyType])[] = [
  ['failed_jobs', 'failedIndex', 'zset'],
  ['recent_failed_jobs', 'recentFailed', 'zset'],
  ['recent_jobs', 'recent', 'zset'],
  ['pending_jobs', 'pending', 'zset'],
  ['completed_jobs', 'completed', 'zset'],
];
/** A Horizon job hash is named by the job's uuid after the prefix. */
const HORIZON_JOB = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every index at which `marker` starts in `key`: a prefix is free text, so each is a possible end of it. */
function splitsAt(key: string, marker: string): [base: string, rest: string][] {
  const splits: [string, string][] = [];
  for (let at = key.indexOf(marker); at !== -1; at = key.indexOf(marker, at + 1)) splits.push([key.slice(0, at), key.slice(at + marker.length)]);
  return splits;
}

function fixedCandidates(key: string, family: LayoutFamily, fixed: readonly (readonly [string, string, KeyType])[]): KeyCandidate[] {
  return fixed
    .filter(([suffix]) => key.endsWith(suffix))
    .map(([suffix, role, type]) => ({ family, base: key.slice(0, key.length - suffix.length), role, type }));
}

function staticPhpCandidates(key: string): KeyCandidate[] {
  const found = fixedCandidates(key, 'staticphp', STATICPHP_FIXED);
  for (const [base, rest] of splitsAt(key, 'j:')) if (/^\d+$/.test(rest)) found.push({ family: 'staticphp', base, role: 'job', type: 'hash' });
  for (const [base, rest] of splitsAt(key, 'u:')) if (rest !== '') found.push({ family: 'staticphp', base, role: 'unique', type: 'string' });
  for (const [base, rest] of splitsAt(key, 'q:')) {
    const stream = /^(.+):s:-?\d+$/s.exec(rest);
    if (stream) found.push({ family: 'staticphp', base, role: 'stream', type: 'stream', queue: stream[1]! });
    const sorted = /^(.+):(levels|delayed)$/s.exec(rest);
    if (sorted) found.push({ family: 'staticphp', base, role: sorted[2]!, type: 'zset', queue: sorted[1]! });
  }
  return found;
}

function markoCandidates(key: string): KeyCandidate[] {
  const found = fixedCandidates(key, 'marko', MARKO_FIXED);
  for (const [base, rest] of splitsAt(key, 'queues:')) {
    if (rest === '') continue;
    const suffixed = /^(.+):(delayed|reserved|notify)$/s.exec(rest);
    if (suffixed) found.push({ family: 'marko', base, role: suffixed[2]!, type: suffixed[2] === 'notify' ? 'list' : 'zset', queue: suffixed[1]! });
    // A list named …:delayed is a queue of that name (the type tells); one named …:notify is read as the notify list, a list too (marko-queue-redis-layout.md §4.1).
    if (suffixed?.[2] !== 'notify') found.push({ family: 'marko', base, role: 'ready', type: 'list', queue: rest });
  }
  for (const [base, rest] of splitsAt(key, 'jobs:')) if (rest !== '') found.push({ family: 'marko', base, role: 'job', type: 'hash' });
  return found;
}

function horizonCandidates(key: string): KeyCandidate[] {
  const found = fixedCandidates(key, 'horizon', HORIZON_FIXED);
  const job = HORIZON_JOB.exec(key);
  if (job) found.push({ family: 'horizon', base: key.slice(0, job.index), role: 'job', type: 'hash' });
  return found;
}

/** Every reading of `key` as a key of some layout, each with the type it must have to be one. */
export function candidatesOf(key: string): KeyCandidate[] {
  const yii2 = YII2_KEY.exec(key);
  const found: KeyCandidate[] = yii2 ? [{ family: 'yii2', base: yii2[1]!, role: yii2[2]!, type: YII2_ROLES[yii2[2]!]! }] : [];
  return [...found, ...staticPhpCandidates(key), ...markoCandidates(key), ...horizonCandidates(key)];
}

/** One prefix or channel of one family, as far as the walk has seen it. */
export interface CandidateGroup {
  family: LayoutFamily;
  base: string;
  /** keys seen per role */
  roles: Record<string, number>;
  /** queue names its keys name, the first few */
  queues: string[];
  /** jobs held where Redis says so in one command (a yii2 channel's messages hash); job hashes are counted from roles */
  jobs: number;
  /** a few of its keys, shown when it turns out to be no layout */
  sample: string[];
}

/**
 * What a walk has seen so far. `shares` counts keys by the groups they could
 * belong to (shareOf): most keys have one reading, a few two (`a.seq` may be
 * yii2's or StaticPHP's), and which one a key is counted for is only decided
 * once the walk knows which groups are layouts.
 */
export interface DetectTally {
  /** keys the walk has looked at */
  scanned: number;
  groups: Record<string, CandidateGroup>;
  shares: Record<string, number>;
  /** QueueLens's own keys (the audit log, the throughput history: lib/dashboard/keys.ts), neither a layout's nor strangers */
  own: number;
  /** keys no layout's names fit */
  strangers: number;
  strangerSample: string[];
  /** candidate groups were dropped to stay within MAX_GROUPS: key counts may be low */
  capped: boolean;
}

/** The most candidate groups a tally keeps: a database of strangers whose names happen to fit a shape makes one per distinct prefix. */
export const MAX_GROUPS = 2_000;
export const STRANGER_SAMPLE = 10;
const GROUP_SAMPLE = 3;
const QUEUE_NAMES_KEPT = 20;

/** A share's key: the ids of the groups a key could belong to, as JSON (a prefix may hold any character). */
const shareOf = (ids: string[]) => JSON.stringify(ids.sort());
const idsOf = (share: string) => JSON.parse(share) as string[];

export function emptyTally(): DetectTally {
  return { scanned: 0, groups: {}, shares: {}, own: 0, strangers: 0, strangerSample: [], capped: false };
}

function groupId(family: LayoutFamily, base: string): string {
  return `${family} ${base}`;
}

function withSample(sample: readonly string[], more: readonly string[], limit: number): string[] {
  const kept = [...sample];
  for (const key of more) if (kept.length < limit && !kept.includes(key)) kept.push(key);
  return kept;
}

/**
 * Adds one key to `tally`: `fitting` are its candidates whose type Redis
 * confirmed (none: a stranger). `jobs` is what a sizing command answered for
 * it (HLEN of a yii2 messages hash), else 0.
 */
export function tallyKey(tally: DetectTally, key: string, fitting: readonly KeyCandidate[], jobs = 0): void {
  if (fitting.length === 0) {
    tally.strangers += 1;
    tally.strangerSample = withSample(tally.strangerSample, [key], STRANGER_SAMPLE);
    return;
  }
  const ids = new Set<string>();
  for (const candidate of fitting) {
    const id = groupId(candidate.family, candidate.base);
    ids.add(id);
    const group = (tally.groups[id] ??= { family: candidate.family, base: candidate.base, roles: {}, queues: [], jobs: 0, sample: [] });
    group.roles[candidate.role] = (group.roles[candidate.role] ?? 0) + 1;
    if (candidate.role === 'messages') group.jobs += jobs;
    if (candidate.queue !== undefined) group.queues = withSample(group.queues, [candidate.queue], QUEUE_NAMES_KEPT);
    group.sample = withSample(group.sample, [key], GROUP_SAMPLE);
  }
  const share = shareOf([...ids]);
  tally.shares[share] = (tally.shares[share] ?? 0) + 1;
}

/** Roles that make a group worth keeping over others when the tally is full: what a layout is recognised by. */
const ANCHOR_ROLES: Readonly<Record<LayoutFamily, readonly string[]>> = {
  staticphp: ['queues'],
  yii2: ['messages', 'message_id'],
  marko: ['failedJobs', 'failedIndex', 'job'],
  horizon: ['failedIndex'],
};

function isAnchored(group: CandidateGroup): boolean {
  return ANCHOR_ROLES[group.family].some((role) => (group.roles[role] ?? 0) > 0);
}

function keyCount(group: CandidateGroup): number {
  return Object.values(group.roles).reduce((sum, count) => sum + count, 0);
}

/**
 * Drops groups beyond MAX_GROUPS, those without an anchor key and with the
 * fewest keys first; a key none of whose groups is left is a stranger again.
 */
function capped(tally: DetectTally): DetectTally {
  const ids = Object.keys(tally.groups);
  if (ids.length <= MAX_GROUPS) return tally;
  const ranked = ids.sort((a, b) => {
    const [groupA, groupB] = [tally.groups[a]!, tally.groups[b]!];
    return Number(isAnchored(groupB)) - Number(isAnchored(groupA)) || keyCount(groupB) - keyCount(groupA);
  });
  const kept = new Set(ranked.slice(0, MAX_GROUPS));
  const groups = Object.fromEntries(Object.entries(tally.groups).filter(([id]) => kept.has(id)));
  const shares: Record<string, number> = {};
  let strangers = tally.strangers;
  let strangerSample = tally.strangerSample;
  for (const [share, count] of Object.entries(tally.shares)) {
    const ids = idsOf(share);
    const left = ids.filter((id) => kept.has(id));
    if (left.length === 0) {
      strangers += count;
      strangerSample = withSample(
        strangerSample,
        ids.flatMap((id) => tally.groups[id]?.sample ?? []),
        STRANGER_SAMPLE,
      );
    } else {
      const key = shareOf(left);
      shares[key] = (shares[key] ?? 0) + count;
    }
  }
  return { ...tally, groups, shares, strangers, strangerSample, capped: true };
}

/** Two tallies of consecutive steps as one, within MAX_GROUPS. */
export function mergeTallies(a: DetectTally, b: DetectTally): DetectTally {
  const groups: Record<string, CandidateGroup> = { ...a.groups };
  for (const [id, group] of Object.entries(b.groups)) {
    const known = groups[id];
    if (!known) {
      groups[id] = group;
      continue;
    }
    const roles = { ...known.roles };
    for (const [role, count] of Object.entries(group.roles)) roles[role] = (roles[role] ?? 0) + count;
    groups[id] = {
      ...known,
      roles,
      jobs: known.jobs + group.jobs,
      queues: withSample(known.queues, group.queues, QUEUE_NAMES_KEPT),
      sample: withSample(known.sample, group.sample, GROUP_SAMPLE),
    };
  }
  const shares = { ...a.shares };
  for (const [share, count] of Object.entries(b.shares)) shares[share] = (shares[share] ?? 0) + count;
  return capped({
    scanned: a.scanned + b.scanned,
    groups,
    shares,
    own: a.own + b.own,
    strangers: a.strangers + b.strangers,
    strangerSample: withSample(a.strangerSample, b.strangerSample, STRANGER_SAMPLE),
    capped: a.capped || b.capped,
  });
}

export type Confidence = 'high' | 'medium' | 'low';

/** A prefix or channel recognised as one layout. */
export interface LayoutFind {
  layout: LayoutName;
  /** StaticPHP, marko and Laravel */
  prefix?: string;
  /** Laravel: the prefix of Horizon's keys beside it, whose failed list it reads */
  horizonPrefix?: string;
  /** yii2 */
  channel?: string;
  /** keys counted for it */
  keys: number;
  /** jobs it holds, as far as the walk could tell (job hashes, or a yii2 messages hash's size) */
  jobs: number;
  /** the queues its keys name (the first few); empty for a yii2 channel, which is one queue */
  queues: string[];
  confidence: Confidence;
  /** what matched, in words */
  matched: string;
}

/** What a walk found: the layouts, and the keys that fit none. */
export interface Detection {
  found: LayoutFind[];
  scanned: number;
  /** keys QueueLens keeps itself, under its own prefix */
  own: number;
  strangers: { count: number; sample: string[] };
  /** some candidates were dropped to keep the tally bounded: key counts may be low */
  capped: boolean;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function has(group: CandidateGroup, role: string): number {
  return group.roles[role] ?? 0;
}

/**
 * A queues: group without marko's job hashes or failed store is Laravel's
 * RedisQueue (its elements are the payloads themselves, so it has no other
 * keys): a ready list or a delayed or reserved set seen beside another of
 * its queue keys, or a delayed or reserved set on its own (a ready list
 * alone is any list named queues:…).
 */
function recogniseLaravel(group: CandidateGroup): Pick<LayoutFind, 'layout' | 'confidence' | 'matched'> | null {
  if (has(group, 'job') + has(group, 'failedJobs') + has(group, 'failedIndex') > 0) return null;
  const [ready, sorted, notify] = [has(group, 'ready'), has(group, 'delayed') + has(group, 'reserved'), has(group, 'notify')];
  if (sorted === 0 && !(ready > 0 && notify > 0)) return null;
  const queues = `${group.queues.length === 1 ? 'queue' : 'queues'} ${group.queues.slice(0, 3).join(', ')}${group.queues.length > 3 ? ', …' : ''}`;
  const parts = [
    ...(ready > 0 ? [count(ready, 'ready list')] : []),
    ...(sorted > 0 ? [count(sorted, 'delayed or reserved set')] : []),
    ...(notify > 0 ? [count(notify, 'notify list')] : []),
  ];
  return {
    layout: 'laravel',
    confidence: ready > 0 && sorted > 0 ? 'medium' : 'low',
    matched: `${parts.join(', ')} (${queues}); no job hashes, no failed store`,
  };
}

/** The layout a group is, with how sure and why; null when it is none. */
function recognise(group: CandidateGroup): Pick<LayoutFind, 'layout' | 'confidence' | 'matched'> | null {
  if (group.family === 'staticphp') {
    const [queues, seq, streams, jobs] = [has(group, 'queues'), has(group, 'seq'), has(group, 'stream'), has(group, 'job')];
    // A set whose name ends in "queues" is common; with the id counter or a ready stream beside it, it is StaticPHP's.
    if (queues === 0 || seq + streams === 0) return null;
    const parts = [
      'a queues set',
      ...(seq > 0 ? ['an id counter (seq)'] : []),
      ...(streams > 0 ? [count(streams, 'ready stream')] : []),
      ...(jobs > 0 ? [count(jobs, 'job hash', 'job hashes')] : []),
    ];
    return { layout: 'staticphp', confidence: seq > 0 && streams > 0 ? 'high' : 'medium', matched: parts.join(', ') };
  }
  if (group.family === 'yii2') {
    const [messages, messageId] = [has(group, 'messages'), has(group, 'message_id')];
    if (messages + messageId === 0) return null;
    const ngKeys = [...YII2_NG_ROLES].filter((role) => has(group, role) > 0);
    const others = Object.keys(group.roles).filter((role) => role !== 'messages' && role !== 'message_id');
    const parts = [
      ...(messages > 0 ? ['a messages hash'] : []),
      ...(messageId > 0 ? ['an id counter (message_id)'] : []),
      ...others.filter((role) => !YII2_NG_ROLES.has(role)).map((role) => `.${role}`),
    ];
    const ng = ngKeys.length > 0 ? `; redis-ng's ${ngKeys.map((role) => `.${role}`).join(', ')}` : '; no key only redis-ng writes';
    const confidence: Confidence = messages > 0 && messageId > 0 ? 'high' : others.length > 0 ? 'medium' : 'low';
    return { layout: ngKeys.length > 0 ? 'yii2-ng' : 'yii2', confidence, matched: `${parts.join(', ')}${ng}` };
  }
  const [ready, delayed, reserved, notify, jobs, failed, failedIndex] = ['ready', 'delayed', 'reserved', 'notify', 'job', 'failedJobs', 'failedIndex'].map(
    (role) => has(group, role),
  ) as [number, number, number, number, number, number, number];
  const queueKeys = ready + delayed + reserved + notify;
  // Lists and sorted sets under queues: alone are Laravel's shape too; marko's job hashes, or its failed store, tell them apart.
  if (!((queueKeys > 0 && jobs > 0) || (failed > 0 && failedIndex > 0) || (jobs > 0 && failed + failedIndex > 0))) return recogniseLaravel(group);
  const parts = [
    ...(queueKeys > 0
      ? [
          `${count(queueKeys, 'queue key')} (${group.queues.length === 1 ? 'queue' : 'queues'} ${group.queues.slice(0, 3).join(', ')}${group.queues.length > 3 ? ', …' : ''})`,
        ]
      : []),
    ...(jobs > 0 ? [count(jobs, 'job hash', 'job hashes')] : []),
    ...(failed + failedIndex > 0 ? ['the failed-jobs store'] : []),
  ];
  return { layout: 'marko', confidence: queueKeys > 0 && jobs > 0 ? 'high' : 'medium', matched: parts.join(', ') };
}

/** Which of a key's readings it is counted for when several are layouts: a yii2 name (dot and suffix) is the most specific. */
const FAMILY_ORDER: readonly LayoutFamily[] = ['yii2', 'marko', 'staticphp', 'horizon'];

/**
 * Horizon's keys: its failed list beside another of its indexes or a job
 * hash (a key named …recent_failed_jobs also reads as a failed_jobs under
 * the prefix `…recent_`, which has nothing else).
 */
function isHorizon(group: CandidateGroup): boolean {
  return has(group, 'failedIndex') > 0 && ['recentFailed', 'recent', 'pending', 'completed', 'job'].some((role) => has(group, role) > 0);
}

/** A Laravel prefix and a Horizon prefix of the same application: Str::slug(APP_NAME) before `_database_` (or `-database-`) and `_horizon:`. */
function sameApplication(laravelPrefix: string, horizonPrefix: string): boolean {
  const [laravel, horizon] = [laravelPrefix.replace(/[-_]database[-_]$/, ''), horizonPrefix.replace(/_horizon:$/, '')];
  return laravel !== laravelPrefix && horizon !== horizonPrefix && laravel.replace(/-/g, '_') === horizon.replace(/-/g, '_');
}

/**
 * Which Laravel find each Horizon prefix belongs to: the one of the same
 * application, else the only Laravel find when there is one Horizon prefix.
 * A Horizon prefix without one is left out (its keys count as strangers).
 */
function pairHorizons(laravelPrefixes: readonly string[], horizonPrefixes: readonly string[]): Map<string, string> {
  const paired = new Map<string, string>();
  for (const horizon of horizonPrefixes) {
    const laravel =
      laravelPrefixes.find((prefix) => sameApplication(prefix, horizon)) ??
      (laravelPrefixes.length === 1 && horizonPrefixes.length === 1 ? laravelPrefixes[0] : undefined);
    if (laravel !== undefined && !paired.has(laravel)) paired.set(laravel, horizon);
  }
  return paired;
}

/** What `tally` amounts to: each recognised prefix or channel once, the rest counted as strangers (a small sample named). */
export function readDetection(tally: DetectTally): Detection {
  const recognised = new Map<string, Pick<LayoutFind, 'layout' | 'confidence' | 'matched'>>();
  const horizons = new Set<string>();
  for (const [id, group] of Object.entries(tally.groups)) {
    if (group.family === 'horizon') {
      if (isHorizon(group)) horizons.add(id);
      continue;
    }
    const layout = recognise(group);
    if (layout) recognised.set(id, layout);
  }
  const keys = new Map<string, number>();
  let strangers = tally.strangers;
  let sample = tally.strangerSample;
  for (const [share, shareCount] of Object.entries(tally.shares)) {
    const ids = idsOf(share);
    const owner = ids
      .filter((id) => recognised.has(id) || horizons.has(id))
      .sort((a, b) => FAMILY_ORDER.indexOf(tally.groups[a]!.family) - FAMILY_ORDER.indexOf(tally.groups[b]!.family))[0];
    if (owner !== undefined) {
      keys.set(owner, (keys.get(owner) ?? 0) + shareCount);
    } else {
      strangers += shareCount;
      sample = withSample(
        sample,
        ids.flatMap((id) => tally.groups[id]?.sample ?? []),
        STRANGER_SAMPLE,
      );
    }
  }
  const found = [...recognised].map(([id, layout]): LayoutFind => {
    const group = tally.groups[id]!;
    const where = group.family === 'yii2' ? { channel: group.base } : { prefix: group.base };
    const jobs = group.family === 'yii2' ? group.jobs : has(group, 'job');
    // A yii2 channel is one queue, named by the channel itself.
    const queues = group.family === 'yii2' ? [] : group.queues;
    return { ...layout, ...where, keys: keys.get(id) ?? 0, jobs, queues };
  });
  const paired = pairHorizons(
    found.filter((find) => find.layout === 'laravel').map((find) => find.prefix!),
    [...horizons].map((id) => tally.groups[id]!.base),
  );
  for (const id of horizons) {
    const base = tally.groups[id]!.base;
    const find = found.find((laravel) => laravel.layout === 'laravel' && paired.get(laravel.prefix!) === base);
    if (find === undefined) {
      strangers += keys.get(id) ?? 0;
      sample = withSample(sample, tally.groups[id]!.sample, STRANGER_SAMPLE);
      continue;
    }
    find.horizonPrefix = base;
    find.keys += keys.get(id) ?? 0;
    find.matched += `; Laravel Horizon’s failed list under ${base}`;
  }
  found.sort((a, b) => b.keys - a.keys || (a.prefix ?? a.channel ?? '').localeCompare(b.prefix ?? b.channel ?? ''));
  return { found, scanned: tally.scanned, own: tally.own, strangers: { count: strangers, sample }, capped: tally.capped };
}
