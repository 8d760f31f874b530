import { changedFlag, luaScript } from '../redis/lua-script';

/**
 * One holder among the dashboard instances sharing a Redis: true while the
 * caller's token holds `lease` (taken when free, renewed only by its
 * holder). The throughput sampler and the alert sender each hold one, so a
 * dead instance's work is taken over once its lease runs out.
 */
export const holdLease = luaScript({ file: 'dashboard/hold-sampler-lock-1.lua', keys: ['lock'], args: ['token', 'ms'], reply: changedFlag });
