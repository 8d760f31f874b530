import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { glossaryMarkdown } from './glossary-doc';
import { GLOSSARY } from './terms';

describe('the glossary', () => {
  it('docs/glossary.md is the glossary the dashboard shows (regenerate it with glossaryMarkdown() when a word changes)', () => {
    expect(readFileSync(resolve(import.meta.dirname, '../../docs/glossary.md'), 'utf8')).toBe(glossaryMarkdown());
  });

  it('names each word once, with an anchor of its own', () => {
    expect(new Set(GLOSSARY.map(({ term }) => term.toLowerCase())).size).toBe(GLOSSARY.length);
    expect(new Set(GLOSSARY.map(({ id }) => id)).size).toBe(GLOSSARY.length);
    for (const { id } of GLOSSARY) expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });
});
