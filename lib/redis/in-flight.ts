/**
 * `operation(0)` … `operation(count - 1)`, at most `limit` running at once,
 * their results in index order. Commands on one connection are written as
 * they are issued, without waiting for each other's replies, so `limit`
 * scripts in flight cost about one round trip where one after another cost
 * `limit`; the bound keeps what one caller queues ahead of other clients'
 * commands short. Once an operation fails no further one starts, and the
 * first failure is thrown.
 */
export async function inFlight<Result>(count: number, limit: number, operation: (index: number) => Promise<Result>): Promise<Result[]> {
  const results = new Array<Result>(count);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (next < count && !failed) {
      const index = next++;
      try {
        results[index] = await operation(index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
  return results;
}
