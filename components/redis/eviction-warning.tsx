import { Note } from '@/components/ui/note';

/** The one maxmemory-policy under which Redis never deletes keys to make room: anything else can lose jobs. */
const SAFE_MAXMEMORY_POLICY = 'noeviction';

/**
 * Warns when Redis may delete keys to make room, or does not say whether it
 * would: a queue's keys are its jobs. Renders nothing under noeviction.
 */
export function EvictionWarning({ policy }: { policy: string | null }) {
  if (policy === SAFE_MAXMEMORY_POLICY) return null;
  return (
    <Note title={policy === null ? 'Redis does not report its eviction policy' : 'Redis may evict queue keys'}>
      <p>
        {policy === null ? (
          <>QueueLens could not read maxmemory-policy, so it cannot tell whether Redis would delete queue keys when memory runs short. </>
        ) : (
          <>
            maxmemory-policy is <strong className="font-mono">{policy}</strong>: when Redis reaches its memory limit it may delete keys to make room, and a
            deleted queue key is lost jobs (job hashes, streams, the failed set).{' '}
          </>
        )}
        Queues need <span className="font-mono">maxmemory-policy {SAFE_MAXMEMORY_POLICY}</span>, which refuses writes instead of dropping data.
      </p>
    </Note>
  );
}
