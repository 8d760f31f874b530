/** Runs once when the server starts; the checks need Node.js, so they load only in its runtime. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') await import('./instrumentation-node');
}
