import { GLOSSARY } from './terms';

/** docs/glossary.md as written from the glossary the pages show, so the two never say different things. */
export function glossaryMarkdown(): string {
  const intro = [
    '# What the words mean',
    '',
    "The words the dashboard uses for what happens to a queue's jobs, each in one",
    'place. The dashboard shows the same list at `/glossary`, and its pages link',
    'there; both are written from `components/glossary/terms.ts`.',
    '',
  ];
  return [...intro, ...GLOSSARY.flatMap(({ term, definition }) => [`## ${term}`, '', definition, ''])].join('\n');
}
