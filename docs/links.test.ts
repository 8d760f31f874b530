import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];
const README_MAX_LINES = 250;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading!)));
}

/** Every link and image of a page that points inside the repository: `[text](target)`, `![alt](target)` and `<img src="target">`, code blocks left out. */
function localTargetsOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  const targets = [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...text.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map(([, target]) => target!);
  return targets.filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

describe('README and docs/', () => {
  it(`keep the README to ${README_MAX_LINES} lines`, () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it.each(PAGES)('%s: every relative link names a file that exists, and a heading there when it has an anchor', (page) => {
    const broken: string[] = [];
    for (const target of localTargetsOf(page)) {
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(path));
      if (!existsSync(file)) broken.push(`${target}: no file ${relative(ROOT, file)}`);
      else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(relative(ROOT, file)).has(anchor)) broken.push(`${target}: no heading #${anchor}`);
    }
    expect(broken).toEqual([]);
  });

  it('the checker sees what it checks: a missing file and a missing heading would be found', () => {
    expect(localTargetsOf('README.md').length).toBeGreaterThan(3);
    expect(anchorsOf('docs/configuration.md').has('alert-thresholds')).toBe(true);
    expect(anchorOf('Access and `security`: roles!')).toBe('access-and-security-roles');
  });
});
