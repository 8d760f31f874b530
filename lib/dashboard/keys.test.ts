import { describe, expect, it } from 'vitest';
import { slotOf } from '@/lib/redis/hash-slot';
import { dashboardKeys, trashKeys } from './keys';

describe('trashKeys', () => {
  it('puts the trash in the slot of the driver keys a forget moves from, with or without a hash tag in the prefix', () => {
    for (const driverPrefix of ['{shop}:', 'app:{shop}:', 'queue:']) {
      const trash = trashKeys(dashboardKeys('queuelens:'), driverPrefix);
      const driverSlots = new Set([slotOf(`${driverPrefix}failed`), slotOf(`${driverPrefix}j:7`)]);
      const trashSlots = new Set([slotOf(trash.index), slotOf(trash.job('7')), slotOf(trash.where('7'))]);
      expect(trashSlots.size, driverPrefix).toBe(1);
      if (driverPrefix.includes('{')) expect([...trashSlots], driverPrefix).toEqual([...driverSlots]);
    }
  });

  it('keeps the trash of two prefixes apart', () => {
    const keys = dashboardKeys('queuelens:');
    expect(trashKeys(keys, '{a}:').index).not.toBe(trashKeys(keys, '{a}:b:').index);
    expect(trashKeys(keys, 'a:').index).not.toBe(trashKeys(keys, 'b:').index);
  });
});
