import { test as base, type Page } from '@playwright/test';
import { HYDRATED_ATTRIBUTE } from '@/components/shell/hydration';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, whose pages wait after every `goto` and `reload` until
 * React has hydrated what they loaded (HYDRATED_ATTRIBUTE). Before that, a
 * link's click is a full page load (components/shell/hydration.ts) and a
 * checkbox checked may be reset; the specs test the hydrated page. Every
 * spec imports `test` from here.
 */
export const test = base.extend({
  context: async ({ context }, provide) => {
    context.on('page', waitForHydrationAfterLoads);
    await provide(context);
  },
});

/** Only a page of the app hydrates: an API's JSON, a download or a gate's refusal loads no Next script. */
function untilHydrated(page: Page) {
  return page.waitForFunction(
    (attribute) => document.querySelector('script[src*="/_next/static/"]') === null || document.documentElement.hasAttribute(attribute),
    HYDRATED_ATTRIBUTE,
    {
      timeout: 15_000,
    },
  );
}

/** What `load` answers, once the page it loaded has hydrated. */
async function thenHydrated<T>(page: Page, load: Promise<T>): Promise<T> {
  const response = await load;
  await untilHydrated(page);
  return response;
}

function waitForHydrationAfterLoads(page: Page) {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = (...args) => thenHydrated(page, goto(...args));
  page.reload = (...args) => thenHydrated(page, reload(...args));
}
