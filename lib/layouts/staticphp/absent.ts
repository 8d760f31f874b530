/** The layout-neutral pages are for layouts without the driver's own: StaticPHP's pages show more. */
const DRIVER_PAGES_INSTEAD = 'A StaticPHP connection has its driver’s own, fuller page for this';

/** What a StaticPHP connection lacks, in the words a page shows: the same whether Redis answers or not (lib/layouts/capabilities.ts). */
export const STATICPHP_ABSENT = {
  jobLine: DRIVER_PAGES_INSTEAD,
  expiringReservations: DRIVER_PAGES_INSTEAD,
  dueTimeline: DRIVER_PAGES_INSTEAD,
  jobSnapshot: DRIVER_PAGES_INSTEAD,
  lineRepairs: DRIVER_PAGES_INSTEAD,
  keyTable: DRIVER_PAGES_INSTEAD,
} as const;
