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
