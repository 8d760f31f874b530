import type { KeyType } from '../pages';

/**
 * Every key of one yii2-queue channel: `<channel>.<suffix>` in the selected
 * database (yii2-redis has no key prefix of its own). The stock driver uses
 * the first seven; redis-ng adds the last five. See
 * shared/spec/yii2-queue-redis-layout.md §1.
 */
export class Yii2Keys {
  constructor(readonly channel: string) {}

  private key(suffix: string): string {
    return `${this.channel}.${suffix}`;
  }

  /** string: the id counter, one INCR per push */
  get messageId(): string {
    return this.key('message_id');
  }
  /** hash: id → `<ttr>;<serialized job>` */
  get messages(): string {
    return this.key('messages');
  }
  /** list: the stock line; its tail runs next */
  get waiting(): string {
    return this.key('waiting');
  }
  /** sorted set: id scored by the unix second it becomes due */
  get delayed(): string {
    return this.key('delayed');
  }
  /** sorted set: id scored by the unix second its reservation expires */
  get reserved(): string {
    return this.key('reserved');
  }
  /** hash: id → reservations made so far */
  get attempts(): string {
    return this.key('attempts');
  }
  /** string: the stock movers' one-second throttle */
  get movingLock(): string {
    return this.key('moving_lock');
  }
  /** sorted set (ng): the line, lowest score runs first */
  get prioritized(): string {
    return this.key('prioritized');
  }
  /** hash (ng): id → priority, only where it differs from the default */
  get priorities(): string {
    return this.key('priorities');
  }
  /** hash (ng, `original` positions): id → `<joined ms>:<seq>` */
  get ranks(): string {
    return this.key('ranks');
  }
  /** string (ng): one INCR each time a job joins the line */
  get seq(): string {
    return this.key('seq');
  }
  /** sorted set (ng): a wake-up hint for blocked workers */
  get marker(): string {
    return this.key('marker');
  }

  /** Every key above by its name, as each yii2 script's header names its keys (./scripts.ts): a call passes it whole, its wrapper takes what it reads. */
  get byName(): Record<Yii2KeyName, string> {
    const { messageId, messages, waiting, delayed, reserved, attempts, movingLock, prioritized, priorities, ranks, seq, marker } = this;
    return { messageId, messages, waiting, delayed, reserved, attempts, movingLock, prioritized, priorities, ranks, seq, marker };
  }
}

/** What one key of a channel is for: the type the drivers keep there and what it holds, in words. */
export interface Yii2KeyRole {
  type: KeyType;
  holds: string;
}

/** The stock driver's keys of a channel by their name in Yii2Keys: the type it keeps there and what it holds (shared/spec/yii2-queue-redis-layout.md §1). */
export const YII2_STOCK_KEYS = {
  messageId: { type: 'string', holds: 'the id counter: one INCR per push; never lowered' },
  messages: { type: 'hash', holds: 'id → "<ttr>;<serialized job>", one per live job' },
  waiting: { type: 'list', holds: 'the stock line: ids pushed at the head, the tail runs next' },
  delayed: { type: 'zset', holds: 'delayed ids, scored by the unix second they come due' },
  reserved: { type: 'zset', holds: 'reserved ids, scored by the unix second the reservation expires' },
  attempts: { type: 'hash', holds: 'id → reservations made so far' },
  movingLock: { type: 'string', holds: 'the stock movers’ one-second throttle (SET NX EX 1): absent most of the time, never without an expiry' },
} as const satisfies Partial<Record<keyof Yii2Keys, Yii2KeyRole>>;

/** The keys redis-ng adds to the stock seven. */
export const YII2_NG_KEYS = {
  prioritized: { type: 'zset', holds: 'ng’s line: ids scored by priority and join order, the lowest runs first' },
  priorities: { type: 'hash', holds: 'id → priority, only where it differs from the default' },
  ranks: { type: 'hash', holds: 'id → "<joined ms>:<seq>", the place a job first took (original positions only)' },
  seq: { type: 'string', holds: 'one INCR each time a job joins the line' },
  marker: { type: 'zset', holds: 'the wake-up hint for blocked workers: at most the member 0' },
} as const satisfies Partial<Record<keyof Yii2Keys, Yii2KeyRole>>;

/** Every key of a channel under ng (the stock seven, then ng's five), by its name in Yii2Keys. */
export const YII2_KEYS = { ...YII2_STOCK_KEYS, ...YII2_NG_KEYS };

export type Yii2KeyName = keyof typeof YII2_KEYS;
