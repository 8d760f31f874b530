/**
 * The Node flags the dashboard's server process runs with: `queuelens
 * serve` (so `npm start` and the demo) and the benchmarks' server alike.
 *
 * Between two full collections V8 lets the old generation grow to up to
 * four times what survived the last one. The overview's tick turns over
 * enough short-lived objects (at 10,000 queues, tens of MiB a read) that
 * the server then sat near 300 MiB resident, most of it garbage waiting
 * for that collection. Growing by at most twice holds the peak near
 * 235 MiB for about 3 % more server CPU (docs/benchmarks.md, "The overview
 * with 10,000 queues").
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--heap-growing-percent=100'];
