import { QueueError } from '../../redis/errors';
import { settledPipelines } from '../../redis/pipeline';
import type { RedisConnection } from '../../redis/connection';
import {
  PAGE_ROWS,
  type LineRepairs,
  type DueTimelineReader,
  type ExpiringReservationsReader,
  type JobData,
  type JobLineReader,
  type JobMessage,
  type JobPlace,
  type JobSnapshotReader,
  type LineSection,
  type NotInLineYet,
} from '../pages';
import type { Yii2NgSettings } from '../settings';
import type { Yii2Keys } from './keys';
import type { Yii2Driver } from './layout';
import { unremovableAt } from '../line-repairs';
import { ngSettingsFor, readRunOrder, ROW_COPY_LIMIT_BYTES, type Yii2JobSummary, type Yii2LinePage, type Yii2NotInLineYet } from './line';
import { NO_TTR_PREFIX, type Yii2Message } from './message';
import type { JobCopies } from '../adapter';
import { readYii2DelayedTimeline, readYii2Job, readYii2Reservations, type Yii2JobPlace } from './reads';
import { copyYii2Job, promoteDueJobs, reclaimReservation, releaseExpiredReservation, removeYii2Job, runDelayedNow } from './repairs';

/** A channel's keys by name; a name the connection does not list is the caller's mistake, said plainly. */
export type ChannelKeys = (channel: string) => Yii2Keys;

export function channelKeysOf(keysOf: readonly Yii2Keys[]): ChannelKeys {
  return (channel) => {
    const keys = keysOf.find((candidate) => candidate.channel === channel);
    if (keys) return keys;
    const listed = keysOf.map((candidate) => candidate.channel).join(', ');
    throw new QueueError(`There is no channel "${channel.slice(0, 200)}" on this connection: it reads ${listed}`, { notFound: true });
  };
}

const DANGLING_NOTE = 'no message: the id is left in the index, ng discards it when it comes up and the stock queue/run stops at it';
const UNREAD_NOTE = `message over ${ROW_COPY_LIMIT_BYTES / 1024} KiB, not read for a list: its page reads its first bytes`;

/** What is wrong with a list row, in words; null when nothing is. */
function noteOf(summary: Yii2JobSummary): string | null {
  if (summary.dangling) return DANGLING_NOTE;
  if (summary.messageUnread) return UNREAD_NOTE;
  return null;
}

/** A section of the line; `listed`: its ids are a list (the stock waiting list), which a removal reaches only near its ends. */
function sectionOf(page: Yii2LinePage, title: string, description: string, listed: boolean): LineSection {
  return {
    title,
    description,
    total: page.total,
    offset: page.offset,
    rows: page.rows.map((row) => ({
      ...(listed && unremovableAt(row.place - 1, page.total)),
      place: row.place,
      id: row.id,
      name: row.className,
      attempts: row.attempts,
      priority: row.priority,
      ttr: row.ttr,
      note: noteOf(row),
    })),
  };
}

function offsetOf(page: number): number {
  return (page - 1) * PAGE_ROWS;
}

const LINE_DESCRIPTION: Record<Yii2Driver, string> = {
  yii2: 'The waiting list, in the order queue/run pops it: from the tail. Row 1 is the next job a worker reserves after the due delayed jobs and expired reservations no worker has moved in yet.',
  'yii2-ng':
    'The prioritized set, lowest score first (lower priority runs first, then the order jobs joined). Row 1 is the next job a worker reserves unless a due delayed job or an expired reservation no worker has moved in yet ranks ahead of it.',
};

/**
 * Where the driver's next move puts the due and expired jobs (spec §2.2):
 * stock RPUSHes due delayed and then expired ids onto the tail it pops,
 * each set latest first, so the earliest expired reservation runs first,
 * then the earliest due job; ng scores each into the line at its priority.
 */
function notInLineYetOf({ dueDelayed, expiredReserved }: Yii2NotInLineYet, ng: Yii2NgSettings | null): NotInLineYet {
  const them = dueDelayed + expiredReserved === 1 ? 'it' : 'them';
  const order =
    dueDelayed > 0 && expiredReserved > 0
      ? ', expired reservations first, then due delayed jobs, each earliest first'
      : dueDelayed + expiredReserved > 1
        ? ', earliest first'
        : '';
  const where =
    ng === null
      ? `the next reserve puts ${them} ahead of row 1${order}`
      : `the next reserve or push puts ${them} into the line by priority, ahead of row 1 where ${them === 'it' ? 'it ranks' : 'they rank'} before it (up to ${ng.batchSize.toLocaleString('en-US')} of each kind at a time)`;
  return { dueDelayed, expiredReservations: expiredReserved, where };
}

export function yii2JobLine(connection: RedisConnection, channelKeys: ChannelKeys, driver: Yii2Driver, ng: Yii2NgSettings | null): JobLineReader {
  return {
    async read(queue, { page }) {
      const offset = offsetOf(page);
      const order = await readRunOrder(connection, channelKeys(queue), driver, ng, {
        offset,
        limit: PAGE_ROWS,
        takeoverOffset: offset,
        takeoverLimit: PAGE_ROWS,
      });
      const settings = ngSettingsFor(driver, ng);
      const sections = [sectionOf(order.line, 'Next jobs to run', LINE_DESCRIPTION[driver], driver === 'yii2')];
      if (order.takeover !== null && order.takeover.total > 0) {
        const batch = (settings?.batchSize ?? 0).toLocaleString('en-US');
        sections.push(
          sectionOf(
            order.takeover,
            'Taken over from the stock list next',
            `Ids still in the stock waiting list: each reserve moves up to ${batch} of them, tail first, into the prioritized set at their priority.`,
            true,
          ),
        );
      }
      return { queue: order.channel, now: order.now, sections, notInLineYet: notInLineYetOf(order.notInLineYet, settings) };
    },
  };
}

const EXPIRED_MEANS: Record<Yii2Driver, string> = {
  yii2: 'An expired reservation goes back to the waiting list on the next reserve, attempts kept: a killed worker’s job, or a failed one waiting out its TTR for a retry.',
  'yii2-ng':
    'An expired reservation goes back into the line on the next reserve or push, attempts kept: a killed worker’s job, or a failed one waiting out its TTR for a retry.',
};

export function yii2ExpiringReservations(
  connection: RedisConnection,
  channels: readonly string[],
  channelKeys: ChannelKeys,
  driver: Yii2Driver,
  ng: Yii2NgSettings | null,
): ExpiringReservationsReader {
  return {
    async read({ queue, among, page }) {
      const asked = queue === undefined ? (among?.filter((channel) => channels.includes(channel)) ?? channels) : [queue];
      const read = await Promise.all(
        asked.map((channel) => readYii2Reservations(connection, channelKeys(channel), driver, ng, { offset: offsetOf(page), limit: PAGE_ROWS })),
      );
      return {
        now: read[0]?.now ?? 0,
        holderAbsent: read[0]?.holderAbsent ?? '',
        queues: read.map((reservations) => ({
          queue: reservations.channel,
          total: reservations.total,
          live: reservations.live,
          expired: reservations.expired,
          offset: reservations.offset,
          expiredMeans: EXPIRED_MEANS[driver],
          rows: reservations.rows.map((row) => ({
            id: row.id,
            name: row.className,
            attempts: row.attempts,
            priority: row.priority,
            expiresAt: row.expiresAt,
            reservedSince: row.reservedSince,
            expired: row.expired,
            note: noteOf(row),
          })),
        })),
      };
    },
  };
}

function dueMovedBy(ng: Yii2NgSettings | null): string {
  return ng === null
    ? 'Due jobs stay in the delayed set until a worker reserves from this channel: each reserve moves every due job onto the waiting list.'
    : `Due jobs stay in the delayed set until a worker reserves from this channel or a job is pushed to it: each moves up to ${ng.batchSize.toLocaleString('en-US')} due jobs (batchSize) into the line.`;
}

/** How many of the next due jobs the timeline lists. */
const NEXT_DUE_ROWS = 20;

export function yii2DueTimeline(connection: RedisConnection, channelKeys: ChannelKeys, driver: Yii2Driver, ng: Yii2NgSettings | null): DueTimelineReader {
  return {
    async read(queue) {
      const timeline = await readYii2DelayedTimeline(connection, channelKeys(queue), driver, ng, { limit: NEXT_DUE_ROWS });
      const settings = ngSettingsFor(driver, ng);
      return {
        ...timeline,
        dueMovedBy: dueMovedBy(settings),
        next: timeline.next.map((job) => ({ id: job.id, name: job.name, attempts: job.attempts, priority: job.priority, dueAt: job.dueAt, note: noteOf(job) })),
      };
    },
  };
}

function placeOf(place: Yii2JobPlace): JobPlace {
  switch (place.state) {
    case 'waiting':
      return { state: 'waiting', sentence: `waiting at place ${place.place} of ${place.of} in the waiting list (1 runs next)`, at: null };
    case 'awaiting-takeover':
      return {
        state: 'awaiting takeover',
        sentence: `in the stock waiting list at place ${place.place} of ${place.of}: ng takes it over into the line, tail first`,
        at: null,
      };
    case 'prioritized': {
      const priority = place.score.scorePriority === null ? '' : `, scored at priority ${place.score.scorePriority}`;
      return {
        state: 'in line',
        sentence: `in line at place ${place.rank} of ${place.of} (1 runs next); score ${place.score.score}, join sequence ${place.score.seq}${priority}`,
        at: null,
      };
    }
    case 'delayed':
      return { state: 'delayed', sentence: place.due ? 'delayed, due since' : 'delayed until', at: place.until };
    case 'reserved':
      return { state: 'reserved', sentence: place.expired ? 'reserved, its reservation expired at' : 'reserved until', at: place.until };
  }
}

const SERIALIZER_NAMES: Record<Yii2Message['body']['serializer'], string> = {
  php: 'PHP serialize()',
  json: 'JSON (JsonSerializer)',
  igbinary: 'igbinary',
  unknown: 'not recognized',
};

function dataOf(body: Yii2Message['body']): JobData {
  switch (body.serializer) {
    case 'php':
      return { kind: 'php', parse: body.parse };
    case 'json':
      return { kind: 'json', value: body.value, error: body.error };
    case 'igbinary':
      return { kind: 'hex', hex: body.hex, cut: body.cut, format: 'igbinary is not decoded: its first bytes in hex' };
    case 'unknown':
      return { kind: 'text', text: body.text, cut: body.cut };
  }
}

function messageOf(message: Yii2Message): JobMessage {
  const parts = [
    { label: 'TTR prefix', value: message.ttr === null ? 'none' : `${message.ttr} s (${message.bodyOffset} bytes)` },
    { label: 'Serializer', value: SERIALIZER_NAMES[message.body.serializer] },
    { label: 'Stored', value: `${message.length.toLocaleString('en-US')} bytes${message.cut ? ', of which the first were read' : ''}` },
  ];
  return {
    length: message.length,
    cut: message.cut,
    parts,
    problem: message.ttrError,
    data: dataOf(message.body),
    ...(message.editableBody === null ? { copiedAsStored: YII2_COPY_AS_STORED } : { editable: message.editableBody }),
  };
}

/**
 * The channels whose messages hold `id`: one HEXISTS per channel, pipelined
 * a bounded number a round trip, so that over 10,000 channels another
 * client's reads (the overview's) are served between them.
 */
async function channelsHolding(connection: RedisConnection, channels: readonly string[], channelKeys: ChannelKeys, id: string): Promise<string[]> {
  return connection.attempt(async () => {
    const replies = await settledPipelines(connection.redis, channels.length, (pipeline, index) =>
      pipeline.hexists(channelKeys(channels[index]!).messages, id),
    );
    const refused = replies.find((reply) => reply instanceof Error);
    if (refused !== undefined) throw refused;
    return channels.filter((_, index) => replies[index] === 1);
  });
}

export function yii2JobSnapshot(
  connection: RedisConnection,
  channels: readonly string[],
  channelKeys: ChannelKeys,
  driver: Yii2Driver,
  ng: Yii2NgSettings | null,
): JobSnapshotReader {
  return {
    async read(id, queue) {
      // yii2's ids count per channel: without a channel, the channels whose messages hold the id say which job is meant.
      let channel = queue ?? (channels.length === 1 ? channels[0]! : undefined);
      if (channel === undefined) {
        const holders = await channelsHolding(connection, channels, channelKeys, id);
        if (holders.length !== 1) return { id, holders, searched: [...channels] };
        channel = holders[0]!;
      }
      const job = await readYii2Job(connection, channelKeys(channel), driver, ng, id);
      return {
        id: job.id,
        queue: job.channel,
        now: job.now,
        status: job.status,
        statusText: job.statusText,
        places: job.places.map(placeOf),
        attempts: job.attempts,
        priority: job.priority,
        ttr: job.message?.ttr ?? null,
        name: job.name,
        message: job.message === null ? null : messageOf(job.message),
      };
    },
  };
}

/** The pages' repairs on yii2 channels: lib/layouts/yii2/repairs.ts, each channel's scripts with its own keys. */
export function yii2LineRepairs(connection: RedisConnection, channelKeys: ChannelKeys, driver: Yii2Driver, ng: Yii2NgSettings): LineRepairs {
  const channel = (queue: string) => ({ connection, driver, keys: channelKeys(queue), ng });
  return {
    remove: (queue, id, trash) => removeYii2Job(channel(queue), id, trash),
    releaseExpired: (queue, id) => releaseExpiredReservation(channel(queue), id),
    reclaim: (queue, id) => reclaimReservation(channel(queue), id),
    runDelayedNow: (queue, id) => runDelayedNow(channel(queue), id),
    moveDueJobs: (queue) => promoteDueJobs(channel(queue)),
  };
}

/** Why Run a copy does not offer a yii2 message to edit, in the words its dialog shows. */
const YII2_COPY_AS_STORED =
  'Its message is copied as stored: only a JSON-serialized message, read whole, can be edited here (PHP serialize() output counts its own bytes, and igbinary is binary)';

/** Why a yii2 copy made no job, in the words a page shows (lua/yii2/copy-10.lua's outcomes). */
const COPY_REFUSALS = {
  gone: 'its message is gone: the job finished or was removed meanwhile',
  'no-ttr': `it was not copied: ${NO_TTR_PREFIX}`,
  'not-json':
    'its message is not JSON-serialized, so it can only be copied as it is: PHP serialize() output counts its own bytes, and an edit would be another object',
  'bad-edit': 'the edited message is not a JSON object naming its "class", which is what yii2-queue’s JsonSerializer reads back',
} as const;

/** Run a copy on yii2 channels (lib/layouts/yii2/repairs.ts copyYii2Job): the channel's next id, the exact message, placed as the driver's push places it. */
export function yii2JobCopies(connection: RedisConnection, channelKeys: ChannelKeys, driver: Yii2Driver, ng: Yii2NgSettings): JobCopies {
  return {
    async copy(queue, id, { delaySeconds, edited }) {
      const made = await copyYii2Job({ connection, driver, keys: channelKeys(queue), ng }, id, { delaySeconds, body: edited });
      return made.outcome === 'copied' ? { copied: true, id: made.id } : { copied: false, refused: `Job ${id} was not copied: ${COPY_REFUSALS[made.outcome]}` };
    },
  };
}
