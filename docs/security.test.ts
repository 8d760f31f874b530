import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** `| \`next\` | 16.4.6 |` and `| \`react\`, \`react-dom\` | 19.3.1 |` rows of the Dependencies table, package by package. */
function documentedVersions(markdown: string): Record<string, string> {
  const section = markdown.split(/^### Dependencies$/m)[1]?.split(/^#{1,3} /m)[0] ?? '';
  const versions: Record<string, string> = {};
  for (const [, names, version] of section.matchAll(/^\| ((?:`[^`]+`(?:, )?)+) \| ([^|\s]+) \|$/gm)) {
    for (const [, name] of names!.matchAll(/`([^`]+)`/g)) versions[name!] = version!;
  }
  return versions;
}

describe('docs/security.md', () => {
  // Issue 15 asks the page to list the versions that were checked against the advisories: a bump that forgets the page would make it say something untrue.
  it('lists every runtime dependency at the version package.json pins', () => {
    const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(documentedVersions(readFileSync(join(ROOT, 'docs/security.md'), 'utf8'))).toEqual(dependencies);
  });

  it('the table reader sees what it checks: a row naming two packages, and a version that differs', () => {
    const table = '### Dependencies\n\n| package | version |\n| --- | --- |\n| `react`, `react-dom` | 19.3.1 |\n| `zod` | 4.6.6 |\n\n## Next\n| `late` | 1 |\n';
    expect(documentedVersions(table)).toEqual({ react: '19.3.1', 'react-dom': '19.3.1', zod: '4.6.6' });
  });

  it('says how to run npm audit', () => {
    expect(readFileSync(join(ROOT, 'docs/security.md'), 'utf8')).toMatch(/^npm audit --omit=dev/m);
  });
});
