import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { CONNECTION_COOKIE } from '@/lib/queries/tab-connection';
import { APP_PORT } from './support';

/** Helpers of the specs of the layout-neutral pages (layouts-pages.spec.ts for yii2, marko.spec.ts). */

/** Makes `page`'s browser show `connection`, as the header's switcher would. */
export async function showConnection(page: Page, connection: string): Promise<void> {
  await page.context().addCookies([{ name: CONNECTION_COOKIE, value: connection, url: `http://127.0.0.1:${APP_PORT}` }]);
}

/**
 * Light and dark at a desktop's and a phone's width, attached; the page
 * itself never scrolls sideways. The whole page, or with `region` the
 * screen around it (a page of 500 rows is too tall to read whole).
 */
export async function screenshots(page: Page, testInfo: TestInfo, what: string, { region }: { region?: Locator } = {}): Promise<void> {
  for (const [colorScheme, width] of [
    ['light', 1400],
    ['dark', 1400],
    ['light', 390],
    ['dark', 390],
  ] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width, height: 900 });
    await region?.scrollIntoViewIfNeeded();
    await testInfo.attach(`${what}, ${colorScheme}, ${width} px`, {
      body: await page.screenshot({ fullPage: region === undefined }),
      contentType: 'image/png',
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${what} at ${width} px`).toBe(true);
  }
}

/** The ids in a table's Job column (links `#id`: decimal for yii2, UUIDs for marko), in the order shown. */
export async function jobIds(page: Page, table: string): Promise<string[]> {
  const links = page.getByRole('table', { name: table }).getByRole('link', { name: /^#/ });
  return (await links.allTextContents()).map((text) => text.slice(1));
}
