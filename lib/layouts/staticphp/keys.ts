/**
 * Every key of the StaticPHP layout, built in one place. The Lua scripts
 * build the keys they derive from data (a job id read from a stream) from the
 * same prefix, in lua/includes/layout.lua.
 */
export class QueueKeys {
  constructor(readonly prefix: string) {}

  /** hash: the job */
  job(id: number | string): string {
    return `${this.prefix}j:${id}`;
  }

  /** stream: ids ready at one priority level */
  stream(queue: string, level: number | string): string {
    return `${this.prefix}q:${queue}:s:${level}`;
  }

  /** sorted set: the levels a queue has streams for, scored by the level */
  levels(queue: string): string {
    return `${this.prefix}q:${queue}:levels`;
  }

  /** sorted set: ids scored by the unix second they may run */
  delayed(queue: string): string {
    return `${this.prefix}q:${queue}:delayed`;
  }

  /** string: the id of the job holding a unique key */
  unique(key: string): string {
    return `${this.prefix}u:${key}`;
  }

  /** sorted set: failed ids scored by the unix second they failed */
  get failed(): string {
    return `${this.prefix}failed`;
  }

  /** set: queue names */
  get queues(): string {
    return `${this.prefix}queues`;
  }

  /** string: the id counter */
  get seq(): string {
    return `${this.prefix}seq`;
  }

  /** list: what the demo.record handler ran, "id attempt holder" per run; QueueLens's demos only, no part of the PHP layout */
  get demoRuns(): string {
    return `${this.prefix}demo:runs`;
  }
}

/**
 * The level a job's priority field names, as the stream key and the member of
 * q:{queue}:levels spell it: a whole number is kept as its decimal digits
 * (leading zeros dropped), never passed through a JS number, because PHP's
 * integers are 64-bit and a priority such as 9007199254740993 must name
 * s:9007199254740993, not s:9007199254740992. Anything else is floored, or
 * level 0 when it is no number. lua/includes/layout.lua's levelOf is the same
 * rule inside the scripts.
 */
export function levelOf(priority: string): string {
  const whole = /^(-?)0*(\d+)$/.exec(priority);
  if (whole) return whole[2] === '0' ? '0' : `${whole[1]}${whole[2]}`;
  const value = Math.floor(Number(priority === '' ? 0 : priority));
  return Number.isSafeInteger(value) ? String(value) : '0';
}
