import { describe, expect, it } from 'vitest';
import { chartRangeFromParam, DEFAULT_CHART_RANGE } from './throughput';

describe('chartRangeFromParam', () => {
  it('takes a range the chart offers from the address', () => {
    expect(chartRangeFromParam('24h')).toBe('24h');
    expect(chartRangeFromParam('15m')).toBe('15m');
  });

  it('opens on the default for no range or one the chart does not offer', () => {
    expect(DEFAULT_CHART_RANGE).toBe('1h');
    for (const value of [null, undefined, '', '2h', '24H', '15m ']) expect(chartRangeFromParam(value)).toBe(DEFAULT_CHART_RANGE);
  });
});
