import 'server-only';
import { z } from 'zod';
import { FIND_FIELDS, FIND_STATES, MAX_FIND_TEXT, type FindQuery, type FindState, type FindStep } from '@/lib/shapes/find';
import { isAbsent } from '@/lib/layouts/adapter';
import { readCapability, readLayout, type ReadResult } from './queue';

/** A search as a URL (the page's and GET /api/find's): `states` comma-joined, empty for every state. */
export const findParams = z.object({
  text: z.string().min(1).max(MAX_FIND_TEXT),
  field: z.enum(FIND_FIELDS).default('any'),
  queue: z.string().max(1000).optional(),
  states: z
    .string()
    .max(100)
    .default('')
    .transform((text) => text.split(',').filter((state) => state !== ''))
    .pipe(z.array(z.enum(FIND_STATES))),
  cursor: z.string().max(4000).optional(),
});

export const FIND_PARAMS_RULE = `text is 1 to ${MAX_FIND_TEXT} characters; field is one of ${FIND_FIELDS.join(', ')}; states are among ${FIND_STATES.join(', ')}`;

/** One step of a search, for GET /api/find: the browser asks for the next while its tab is open, so an abandoned search stops. */
export function readFindStep(query: FindQuery, cursor: string | null): Promise<ReadResult<FindStep>> {
  return readCapability('finder', (finder) => finder.step(query, cursor));
}

/** What the form offers on the connection's layout: the states it can find jobs in, and its queues. */
export function readFindScope(): Promise<ReadResult<{ states: readonly FindState[]; queues: string[] }>> {
  return readLayout(async (layout) => {
    const { queues } = await layout.counts({ everyQueue: true });
    return { states: isAbsent(layout.finder) ? [] : layout.finder.states, queues: queues.map((row) => row.queue).sort() };
  });
}
