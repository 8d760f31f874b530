import type { Redis } from 'ioredis';

/** What a test reads of the commands a client sent from the moment it began watching. */
export interface WatchedCommands {
  /** how many commands named one of `names` (lower case, e.g. 'scan') it sent */
  sent(...names: string[]): number;
  /** the most commands named one of `pendingOf` it had sent and not yet had answered, at any moment */
  mostPending(): number;
}

type SentCommand = Parameters<Redis['sendCommand']>[0];

/**
 * Watches the commands `redis` sends (ioredis' sendCommand, which every
 * command, pipelined or not, goes through), counting them by name and
 * keeping how many of `pendingOf` were in flight at once. Redis still
 * answers each one: nothing is changed on the way. `afterSent` is called
 * with each command once it is sent: what it sends on `redis` runs after it.
 */
export function watchCommands(
  redis: Pick<Redis, 'sendCommand'>,
  pendingOf: readonly string[] = [],
  afterSent: (command: SentCommand) => void = () => {},
): WatchedCommands {
  const send = redis.sendCommand.bind(redis);
  const counts = new Map<string, number>();
  let pending = 0;
  let most = 0;
  redis.sendCommand = (...sent: Parameters<Redis['sendCommand']>) => {
    const [command] = sent;
    counts.set(command.name, (counts.get(command.name) ?? 0) + 1);
    if (pendingOf.includes(command.name)) {
      most = Math.max(most, ++pending);
      const settled = () => void pending--;
      command.promise.then(settled, settled);
    }
    const sending = send(...sent);
    afterSent(command);
    return sending;
  };
  return {
    sent: (...names) => names.reduce((sum, name) => sum + (counts.get(name) ?? 0), 0),
    mostPending: () => most,
  };
}

/**
 * Runs `then` once, right after Redis answers the first `name` command
 * naming `key` that `redis` sends: a change made between two round trips
 * of the code under test. A command sent while a pipeline is being built
 * would be written before that pipeline, so `then` waits for the answer.
 */
export function onceAnswered(redis: Pick<Redis, 'sendCommand'>, name: string, key: string, then: () => Promise<unknown>): void {
  let done = false;
  watchCommands(redis, [], (command) => {
    if (done || command.name !== name || !command.args.map(String).includes(key)) return;
    done = true;
    void command.promise.then(then);
  });
}
