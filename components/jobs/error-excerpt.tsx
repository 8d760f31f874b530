import { scrollableBox } from '@/components/ui/scroll-x';
import { leadingLines } from './leading-lines';

/**
 * The first lines of an error field, where the operator looks first, with a
 * link to the whole text further down the page (`href`, the field's row).
 */
export function ErrorExcerpt({ label, text, href }: { label: string; text: string; href: string }) {
  const { text: shown, cut } = leadingLines(text);
  return (
    <figure className="mt-3 space-y-1">
      <figcaption className="text-sm font-medium">{label}</figcaption>
      <pre
        {...scrollableBox(`${label}, first lines`)}
        className="max-h-40 overflow-auto rounded border border-current/20 bg-white/60 px-3 py-2 font-mono text-xs whitespace-pre-wrap [overflow-wrap:anywhere] dark:bg-black/30"
      >
        {shown}
      </pre>
      <a href={href} className="text-sm underline underline-offset-2">
        {cut ? `The whole ${label.toLowerCase()}` : `${label} in the fields below`}
      </a>
    </figure>
  );
}
