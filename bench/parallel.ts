/** Runs `operation(0)` … `operation(count - 1)`, `inFlight` at a time, in order of starting. */
export async function inParallel(count: number, inFlight: number, operation: (n: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(inFlight, count) }, async () => {
      while (next < count) await operation(next++);
    }),
  );
}
