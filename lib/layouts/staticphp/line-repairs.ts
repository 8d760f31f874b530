import type { RedisQueue } from '../../queue/redis-queue';
import { absentMembers } from '../adapter';
import type { LineRepairs } from '../pages';
import { STATICPHP_LINE_REPAIRS_ABSENT } from './absent';

/**
 * The repairs the line, reservations, delayed and job pages offer on a
 * StaticPHP connection: each one of the driver's own atomic scripts, which
 * re-check before they change anything.
 */
export function staticphpLineRepairs(queue: RedisQueue): LineRepairs {
  void queue;
  return { ...absentMembers(STATICPHP_LINE_REPAIRS_ABSENT) };
}
