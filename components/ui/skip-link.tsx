/** The id of the page's `<main>`: where the skip link goes, and where focus returns when what held it goes away. */
export const MAIN_CONTENT_ID = 'content';

/** The first stop of Tab on every page: past the header's dozen controls to the page itself. */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-blue-700 shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 dark:bg-zinc-800 dark:text-blue-300"
    >
      Skip to content
    </a>
  );
}
