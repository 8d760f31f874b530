/**
 * When a request reached the server, so that a read may be shared with it
 * whenever that read started after it arrived: such a read shows Redis as it
 * was when the request was made, or later. Identical requests that waited
 * their turn in BurstAdmission's line are then answered from the read of the
 * one ahead of them, as requests that arrive together share the read under
 * way, instead of reading Redis again one after the other.
 */

/** The request header the server sets to the arrival time, ms since the epoch (instrumentation-node.ts), overwriting any a client sent. */
export const ARRIVAL_HEADER = 'x-queuelens-arrived-ms';

/** How long ago the request arrived, ms: 0 when the header is missing or no time. */
export function waitedMs(arrival: string | null, nowMs = Date.now()): number {
  return arrival !== null && /^\d{1,15}$/.test(arrival) ? Math.max(0, nowMs - Number(arrival)) : 0;
}
