import { readDelayedTimeline } from './delayed-timeline';
import { beyondExactIdNote } from '../../shapes/job-ids';
import { PROMOTE_LIMIT, type RedisQueue } from './redis-queue';
import type { DueTimelineReader } from '../pages';

/** How many of the next due jobs the timeline lists: enough to see what is coming, few enough to poll every second or two. */
const NEXT_DUE_ROWS = 20;

/** The spec (staticphp-queue-redis.md, "Delay"): nothing promotes a delayed job but a worker reserving from that very queue, 50 at a time. */
export const STATICPHP_DUE_MOVED_BY = `Only a worker taking a job from this queue moves them in (at most ${PROMOTE_LIMIT} each time), or you do it here.`;

/** The spec: a promoted job joins the back of its priority's stream, whatever its due time. */
const RUN_NOW_MOVES = 'It leaves the delayed jobs and joins the back of its level, and the next worker taking a job from this queue takes it in turn.';

/**
 * StaticPHP's delayed timeline (lib/layouts/staticphp/delayed-timeline.ts) in the
 * layout-neutral shape: its rows keep who holds a parked job's claim, its
 * due jobs go into their levels, and its ids name a job on the whole
 * connection.
 */
export function staticphpDueTimeline(queue: RedisQueue): DueTimelineReader {
  return {
    async read(name) {
      const timeline = await readDelayedTimeline(queue, name, { limit: NEXT_DUE_ROWS });
      return {
        ...timeline,
        dueMovedBy: STATICPHP_DUE_MOVED_BY,
        movedInto: { one: 'its level', many: 'their levels' },
        idsOfConnection: true,
        runNowMoves: RUN_NOW_MOVES,
        next: timeline.next.map((job) => ({
          id: String(job.id),
          name: job.name,
          attempts: job.attempts,
          priority: job.priority,
          dueAt: job.dueAt,
          note: job.name === null ? 'its job hash is gone: a worker only takes it off the delayed jobs' : null,
          heldBy: job.heldBy,
          ...(typeof job.id === 'string' && { idNote: beyondExactIdNote(job.id) }),
        })),
      };
    },
  };
}
