import { describe, expect, it } from 'vitest';
import {
  failedOfQueueHref,
  findEveryStateHref,
  addressOn,
  withConnection,
  findSearchHref,
  jobFieldDownloadHref,
  parseJobId,
  parseJobIdText,
  queueFromMetadataParam,
  queueFromSegment,
  queueHref,
} from './routes';

describe('parseJobId', () => {
  it('takes a whole number above 0, written with digits only', () => {
    expect(parseJobId('1')).toBe(1);
    expect(parseJobId('9007199254740991')).toBe(9_007_199_254_740_991);
  });

  it('refuses anything else', () => {
    for (const text of ['', '0', '-1', '01', '1.5', '1e3', ' 1', '#1', 'abc', '9007199254740993']) expect(parseJobId(text)).toBeNull();
  });
});

describe('parseJobIdText', () => {
  it('takes decimal ids beyond what a number holds, and an application’s text ids such as marko’s UUIDs', () => {
    for (const text of ['1', '18446744073709551615', '3f2b8c1e-5a4d-4e6f-9b7a-0c1d2e3f4a5b', 'job_1.retry:2']) expect(parseJobIdText(text)).toBe(text);
  });

  it('refuses what could reach another key or markup', () => {
    for (const text of ['', '-1', '.hidden', 'a b', 'a/b', 'a*', '<b>x</b>', 'x'.repeat(201)]) expect(parseJobIdText(text)).toBeNull();
  });
});

describe('links', () => {
  it('keeps any queue name in one path segment or one query value', () => {
    const name = 'a/b?c#d <img src=x> 50%';
    expect(queueHref(name)).toBe('/queues/a%2Fb%3Fc%23d%20%3Cimg%20src%3Dx%3E%2050%25');
    expect(new URL(failedOfQueueHref(name), 'http://x').searchParams.get('queue')).toBe(name);
    expect(jobFieldDownloadHref(5, 'a/b')).toBe('/api/jobs/5/fields/a%2Fb');
  });
});

describe('queueFromSegment', () => {
  it('reads back exactly the name queueHref wrote', () => {
    for (const name of ['emails', 'a/b', '50%off', 'a%2Fb', 'café', '<img src=x onerror=alert(1)>', ' spaced ']) {
      expect(queueFromSegment(queueHref(name).slice('/queues/'.length))).toBe(name);
    }
  });

  it('refuses a segment that is not valid percent-encoding', () => {
    expect(queueFromSegment('%E0%A4%A')).toBeNull();
    expect(queueFromSegment('')).toBeNull();
  });
});

describe('queueFromMetadataParam', () => {
  it('reads a name whether Next passed it encoded or already decoded', () => {
    for (const name of ['emails', 'a/b', '50%off', 'café', 'a/b 50%-x <img src=x onerror=alert(1)>']) {
      expect(queueFromMetadataParam(queueHref(name).slice('/queues/'.length))).toBe(name);
      expect(queueFromMetadataParam(name)).toBe(name);
    }
  });
});

describe('findEveryStateHref', () => {
  it('searches every state for the failed filter’s error, or its job name, within its queue', () => {
    expect(findEveryStateHref({ queue: 'mail', name: 'Send', error: 'SMTP refused' })).toBe('/find?text=SMTP+refused&field=error&queue=mail');
    expect(findEveryStateHref({ name: 'App\\Jobs\\Send' })).toBe('/find?text=App%5CJobs%5CSend&field=name');
  });

  it('offers none for a queue alone, or a text longer than a search takes', () => {
    expect(findEveryStateHref({ queue: 'mail' })).toBeNull();
    expect(findEveryStateHref({ error: 'x'.repeat(201) })).toBeNull();
  });
});

describe('findSearchHref', () => {
  it('names the case rule only when case is ignored, so an older address still means a case-sensitive search', () => {
    const search = { text: 'acme-42', field: 'payload', queue: null, states: ['failed'] };
    expect(findSearchHref({ ...search, ignoreCase: true })).toBe('/find?text=acme-42&field=payload&states=failed&case=ignore');
    expect(findSearchHref({ ...search, ignoreCase: false })).toBe('/find?text=acme-42&field=payload&states=failed');
    expect(findSearchHref(search)).toBe('/find?text=acme-42&field=payload&states=failed');
  });

  it('writes a time range in UTC, each end only when it is given', () => {
    const search = { text: 'timeout', field: 'error', queue: null, states: [] };
    const noon = Date.UTC(2026, 11, 5, 12, 0);
    expect(findSearchHref({ ...search, range: { from: noon, until: null } })).toBe('/find?text=timeout&field=error&from=2026-12-05T12%3A00Z');
    expect(findSearchHref({ ...search, range: { from: null, until: noon + 30_000 } })).toBe('/find?text=timeout&field=error&until=2026-12-05T12%3A00%3A30Z');
    expect(findSearchHref({ ...search, range: { from: null, until: null } })).toBe('/find?text=timeout&field=error');
  });

  it('names the connection searched last, when it is given', () => {
    const search = { text: 'acme-42', field: 'any', queue: 'mail', states: [] };
    expect(findSearchHref({ ...search, connection: 'eu west' })).toBe('/find?text=acme-42&queue=mail&connection=eu+west');
    expect(findSearchHref(search)).toBe('/find?text=acme-42&queue=mail');
  });
});

describe('addressOn', () => {
  it('keeps each single-valued parameter and names the connection last, in place of any named before', () => {
    expect(addressOn('/jobs/7', { queue: 'mail', near: 'tail:3', connection: 'old' }, 'eu west')).toBe('/jobs/7?queue=mail&near=tail%3A3&connection=eu+west');
    expect(addressOn('/find', { text: 'a&b', states: ['x', 'y'], gone: undefined }, 'default')).toBe('/find?text=a%26b&connection=default');
  });
});

describe('withConnection', () => {
  it('names the connection after the query, in place of one named before, and keeps the path’s escapes and the fragment', () => {
    expect(withConnection(failedOfQueueHref('<b>mail</b>'), 'eu')).toBe('/failed?queue=%3Cb%3Email%3C%2Fb%3E&connection=eu');
    expect(withConnection(queueHref('a/b c'), 'eu west')).toBe(`${queueHref('a/b c')}?connection=eu+west`);
    expect(withConnection('/jobs/7?connection=old&queue=mail#field-error', 'new')).toBe('/jobs/7?queue=mail&connection=new#field-error');
  });
});
