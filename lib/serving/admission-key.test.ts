import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { admissionKey, queryParametersRead } from './admission-key';

/** Every route and page file under app/, with the path it answers (a dynamic segment as `x`). */
function appRoutes(dir = 'app'): { file: string; path: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) return appRoutes(file);
    if (entry.name !== 'route.ts' && entry.name !== 'page.tsx') return [];
    const segments = relative('app', dir)
      .split(sep)
      .filter(Boolean)
      .map((segment) => (segment.startsWith('[') ? 'x' : segment));
    return [{ file, path: `/${segments.join('/')}` }];
  });
}

describe('admissionKey', () => {
  it('keeps only the query parameters the route reads, sorted, each value as sent and encoded one way', () => {
    expect(admissionKey('GET', '/api/jobs/1/fields/payload?n=1')).toBe('GET /api/jobs/1/fields/payload');
    expect(admissionKey('GET', '/api/failed/search?zz=1&queue=a%20b&offset=50&queue=c')).toBe('GET /api/failed/search?offset=50&queue=a+b&queue=c');
    expect(admissionKey('GET', '/api/failed/search?queue=a+b&offset=50&queue=c')).toBe('GET /api/failed/search?offset=50&queue=a+b&queue=c');
    expect(admissionKey('HEAD', '/failed?page=2&_rsc=abc')).toBe('HEAD /failed?page=2');
    expect(admissionKey('GET', '/failed?page=2')).not.toBe(admissionKey('GET', '/failed?page=3'));
  });

  it('reads a path one way however it is spelled: escapes, dot segments, doubled slashes, the absolute form', () => {
    const key = 'GET /api/jobs/1/fields/payload';
    for (const spelling of [
      '/api/jobs/1/fields/%70ayload',
      '/api/jobs/1/fields/p%61yload?x=1',
      '/api/jobs/./1/fields/payload',
      '/api/x/../jobs/1/fields/payload',
      '//api/jobs//1/fields/payload',
      'http://elsewhere.example/api/jobs/1/fields/payload?n=2',
    ]) {
      expect(admissionKey('GET', spelling)).toBe(key);
    }
    expect(admissionKey('GET', '/queues/a%2Fb')).toBe('GET /queues/a%2Fb');
    expect(admissionKey('GET', '/jobs/%ZZ')).toBe('GET /jobs/%ZZ');
  });

  it('names the parameters of every route and page that reads its query string', () => {
    const reading = appRoutes().filter(({ file }) => /searchParams/.test(readFileSync(file, 'utf8')) && !file.startsWith(join('app', 'login')));
    expect(reading.length).toBeGreaterThan(10);
    for (const { file, path } of reading) expect(queryParametersRead(path), file).not.toEqual([]);
  });
});
