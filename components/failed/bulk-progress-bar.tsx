import { formatCount } from '@/components/ui/format-count';
import type { BulkProgress } from './use-bulk-run';

/** A running bulk action: a labelled progress bar and the way to stop it. */
export function BulkProgressBar({ progress, onCancel }: { progress: BulkProgress; onCancel: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-md border border-blue-200 bg-blue-50 px-4 py-3 text-sm dark:border-blue-900 dark:bg-blue-950">
      <label className="flex min-w-0 flex-1 flex-col gap-1">
        <span>
          {progress.label}: {formatCount(progress.done)} of {formatCount(progress.total)}
        </span>
        <progress value={progress.done} max={Math.max(progress.total, 1)} className="h-2 w-full" />
      </label>
      <button type="button" onClick={onCancel} className="button-secondary">
        Cancel
      </button>
    </div>
  );
}
