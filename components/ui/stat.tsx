import { useId } from 'react';
import { formatCount } from './format-count';

/** One labelled count; a group named by its label, so it can be found by role. */
export function Stat({ label, value }: { label: string; value: number }) {
  const labelId = useId();
  return (
    <div role="group" aria-labelledby={labelId} className="rounded-md border border-zinc-200 bg-white px-4 py-3">
      <p id={labelId} className="text-sm text-zinc-500">
        {label}
      </p>
      <p className="text-2xl font-semibold tabular-nums">{formatCount(value)}</p>
    </div>
  );
}
