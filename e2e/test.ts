import { test as base, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, whose pages wait after every `goto` and `reload` until
 * React has hydrated what they loaded. A link clicked while the page was still
 * hydrating on a busy machine was lost (no request at all, so the next page
 * never came); components/providers.tsx marks `<html data-hydrated>` once
 * clicks are handled. Every spec imports `test` from here.
 */
export const test = base.extend({
  context: async ({ context }, provide) => {
    context.on('page', waitForHydrationAfterLoads);
    await provide(context);
  },
});

/** Only a page of the app hydrates: an API's JSON, a download or a gate's refusal loads no Next script. */
function untilHydrated(page: Page) {
  return page.waitForFunction(() => document.querySelector('script[src*="/_next/static/"]') === null || document.documentElement.dataset.hydrated !== undefined, undefined, {
    timeout: 15_000,
  });
}

function waitForHydrationAfterLoads(page: Page) {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await untilHydrated(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await untilHydrated(page);
    return response;
  };
}
