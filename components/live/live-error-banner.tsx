import { Banner } from '@/components/ui/banner';
import { UtcTime } from '@/components/ui/utc-time';
import type { LiveQueryView } from './use-live-query';

/**
 * A page's alert for a live query whose latest read failed: the reason, and
 * when what is still on screen was read. It goes away by itself with the
 * first read that succeeds.
 */
export function LiveErrorBanner({ title, view }: { title: string; view: LiveQueryView<unknown> }) {
  if (view.error === null) return null;
  return (
    <Banner title={title}>
      {view.error}
      {view.data !== undefined && view.readAt !== null && (
        <span className="mt-1 block">
          What is shown below was read at <UtcTime ms={view.readAt} />; it updates again as soon as a read succeeds.
        </span>
      )}
    </Banner>
  );
}
