/** The layout-neutral pages are for layouts without the driver's own: StaticPHP's pages show more. */
const DRIVER_PAGES_INSTEAD = 'A StaticPHP connection has its driver’s own, fuller page for this';

/** What a StaticPHP connection lacks, in the words a page shows: the same whether Redis answers or not (lib/layouts/capabilities.ts). */
export const STATICPHP_ABSENT = {
  expiringReservations: DRIVER_PAGES_INSTEAD,
  jobSnapshot: DRIVER_PAGES_INSTEAD,
  keyTable: DRIVER_PAGES_INSTEAD,
} as const;

/** The line repairs (lib/layouts/pages.ts LineRepairs) a StaticPHP connection lacks, in the words a page shows: each page's own actions do these until its page is the one page every layout fills. */
export const STATICPHP_LINE_REPAIRS_ABSENT = {
  remove: DRIVER_PAGES_INSTEAD,
  releaseExpired: DRIVER_PAGES_INSTEAD,
  reclaim: DRIVER_PAGES_INSTEAD,
} as const;
