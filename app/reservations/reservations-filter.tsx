'use client';

import { QueuePickerField } from '@/components/queues/queue-picker';
import { UrlFilterForm } from '@/components/ui/url-filter-form';
import { reservationsHref } from '@/lib/routes';

/** The queue filter, in the URL (`/reservations?queue=…`); choosing another starts again at the first page. */
export function ReservationsFilter({ queues, queue }: { queues: readonly string[]; queue: string | null }) {
  return (
    <UrlFilterForm label="Filter reservations" submitLabel="Show" filtered={queue !== null} path={reservationsHref}>
      <QueuePickerField queues={queues} queue={queue} />
    </UrlFilterForm>
  );
}
