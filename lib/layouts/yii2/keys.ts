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
  get byName() {
    const { messageId, messages, waiting, delayed, reserved, attempts, movingLock, prioritized, priorities, ranks, seq, marker } = this;
    return { messageId, messages, waiting, delayed, reserved, attempts, movingLock, prioritized, priorities, ranks, seq, marker };
  }
}
