import { expect, test as setup } from './test';
import { OPERATOR_STATE, e2eSecrets } from './support';

setup('signs in as an operator through the form', async ({ page }) => {
  await page.goto('/failed');
  await expect(page).toHaveURL(/\/login\?next=%2Ffailed$/);
  await page.getByLabel('Secret').fill(e2eSecrets().operator);
  await page.getByLabel(/Your name/).fill('e2e operator');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/failed\?connection=default$/);
  await expect(page.getByText('e2e operator · operator')).toBeVisible();
  await page.context().storageState({ path: OPERATOR_STATE });
});
