import { Note } from '@/components/ui/note';
import { describeQueuesOver } from './describe-crossing';

/** How many queues are over their alert thresholds, above everything else on the overview; nothing while none is. */
export function ThresholdSummary({ over }: { over: number }) {
  if (over === 0) return null;
  return (
    <Note title={describeQueuesOver(over)}>
      <p>
        Their rows in the table below are marked <strong>Over threshold</strong>, with each figure over its limit. The thresholds are set per connection in the
        connections file (<span className="font-mono">alerts</span>), or for every queue with <span className="font-mono">QUEUELENS_ALERT_WAIT_SECONDS</span>{' '}
        and <span className="font-mono">QUEUELENS_ALERT_BACKLOG</span>.
      </p>
    </Note>
  );
}
