'use server';

import { z } from 'zod';
import { MARK_KINDS } from '@/lib/dashboard/notices';
import { inputQueue, queueAction } from '@/lib/server/action';
import { silenceFor } from '@/lib/server/alerts';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

/** The longest silence: a week, so a forgotten one ends by itself. */
const MAX_SILENCE_MINUTES = 7 * 24 * 60;

const silence = z.object({
  queue: z.string().min(1, 'a queue name').max(1024),
  kind: z.enum(MARK_KINDS, { error: `one of ${MARK_KINDS.join(', ')}` }),
  minutes: z.number().int().min(0).max(MAX_SILENCE_MINUTES, 'at most a week'),
});

/** Silences one mark of one queue for a while (0 lifts the silence): its alerts are not sent meanwhile, the page still shows it. */
export const silenceAlert = queueAction(
  'attention',
  silence,
  ({ queue, kind, minutes }, _attention, connection) => silenceFor(connection, queue, kind, minutes),
  {
    action: 'silence an alert',
    target: ({ queue, kind }) => `${kind} on ${queue}`,
    outcome: ({ until }) => (until === 0 ? 'silence lifted' : `silenced until ${new Date(until * 1000).toISOString().replace('.000Z', 'Z')}`),
  },
  inputQueue,
);
