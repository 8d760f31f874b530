import type { Locator, Page } from '@playwright/test';

/** The overview's table of queues. */
export function queuesTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Jobs per queue' });
}

/** The queue names of the table's body rows, in order (the foot's "All queues" left out): each row header's first link, before its marks'. */
export function rowNames(page: Page): Promise<string[]> {
  return queuesTable(page)
    .locator('tbody')
    .getByRole('rowheader')
    .evaluateAll((cells) => cells.map((cell) => cell.querySelector('a')?.textContent ?? ''));
}
