import type { Page } from '@playwright/test';
import { expect } from './test';

/** Searches `text` in the payloads from the Find page's form, as a user does. */
export async function findInPayloads(page: Page, text: string): Promise<void> {
  await page.goto('/find');
  const form = page.getByRole('search', { name: 'Find jobs' });
  await form.getByRole('searchbox', { name: 'Text' }).fill(text);
  await form.getByRole('combobox', { name: 'Look in' }).selectOption('payload');
  await form.getByRole('button', { name: 'Find' }).click();
}

/** The results table's rows once the search is done: each job's id and state. */
export async function foundStates(page: Page): Promise<Record<string, string>> {
  await expect(page.getByRole('status', { name: 'Search progress' })).toContainText('Done.');
  const rows = page.getByRole('table', { name: 'Jobs found' }).getByRole('row');
  const found: Record<string, string> = {};
  for (const row of (await rows.all()).slice(1)) {
    const cells = await row.getByRole('cell').allTextContents();
    found[cells[0]!] = cells[1]!;
  }
  return found;
}
