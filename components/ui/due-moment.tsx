import { UtcMoment } from './moment';

/** When a delayed job comes due, with a badge once that moment has passed and no worker has promoted it yet. */
export function DueMoment({ dueAt, now, overdueLabel }: { dueAt: number; now: number; overdueLabel: string }) {
  return (
    <>
      <UtcMoment seconds={dueAt} now={now} />
      {dueAt <= now && (
        <span className="ml-2 inline-block rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">
          {overdueLabel}
        </span>
      )}
    </>
  );
}
