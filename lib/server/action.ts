import 'server-only';
import { z } from 'zod';
import { QueueError } from '@/lib/queue/errors';
import type { RedisQueue } from '@/lib/queue/redis-queue';
import { getQueue } from '@/lib/server/queue';

/** What every server action returns: a value, never a thrown error or a stack trace. */
export type ActionResult<T extends object> = ({ ok: true } & T) | { ok: false; error: string };

const UNEXPECTED = 'The action failed unexpectedly; the server log has the details.';

function describeInvalidInput(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request was not understood.';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `Invalid input, ${where}${issue.message}`;
}

/**
 * Wraps a server action: validates its input with `schema` (an action is a
 * public endpoint and gets whatever a client sends), runs it against the
 * queue, and maps failures to messages. A QueueError's message is written
 * for operators and is passed on; anything else is logged and reported
 * generically.
 */
export function queueAction<Schema extends z.ZodType, T extends object>(
  schema: Schema,
  run: (input: z.output<Schema>, queue: RedisQueue) => Promise<T>,
): (input: z.input<Schema>) => Promise<ActionResult<T>> {
  return async (input) => {
    const parsed = schema.safeParse(input);
    if (!parsed.success) return { ok: false, error: describeInvalidInput(parsed.error) };
    try {
      return { ok: true, ...(await run(parsed.data, await getQueue())) };
    } catch (error) {
      if (error instanceof QueueError) return { ok: false, error: error.message };
      console.error('QueueLens: a server action failed unexpectedly', error);
      return { ok: false, error: UNEXPECTED };
    }
  };
}
