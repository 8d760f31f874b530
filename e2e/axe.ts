import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.2 A and AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/**
 * axe's violations on the page as it is now, one line each: the rule, how
 * many elements, the first of them and why. `include` narrows it to a
 * selector (an open dialog, say).
 *
 * It waits for the page's title first: after a client-side navigation
 * Next.js streams the new title in a moment after the content, and axe run
 * in that moment reports a missing `document-title` the reader never sees.
 *
 * axe runs in the page itself (legacy mode): its default opens a blank tab
 * for every run to gather cross-origin frames' results, and QueueLens's
 * pages have no frames. The same rules find the same violations (tried on a
 * page with seven kinds), in 1.4 s a run here where the default took 3.1 s,
 * and the suite runs axe hundreds of times.
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  await expect(page).toHaveTitle(/\S/);
  const builder = new AxeBuilder({ page }).withTags(AXE_TAGS).setLegacyMode();
  if (include !== undefined) builder.include(include);
  const { violations } = await builder.analyze();
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.nodes.length}): ${violation.nodes[0]?.target.join(' ')} — ${violation.nodes[0]?.failureSummary?.split('\n')[1]?.trim() ?? ''}`,
  );
}

/**
 * No axe violation on the page (or the part `include` selects: a page too
 * large for axe to finish in a test's time, Find listing 500 rows), light and
 * dark, at a desktop's and a phone's width. It leaves the page at the
 * desktop's width, in dark.
 */
export async function expectNoAxeViolations(page: Page, what: string, include?: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1400, 390]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      expect(await axeViolations(page, include), `${what}, ${colorScheme}, ${width} px`).toEqual([]);
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}
