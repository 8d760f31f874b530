/**
 * Stored text shown exactly, in monospace: a frame that scrolls both ways
 * instead of stretching the page, focusable so a keyboard can scroll it.
 * `wrap` breaks long lines (error traces); without it lines stay as stored
 * (a pretty-printed payload).
 */
export function CodeBlock({ label, text, wrap = false }: { label: string; text: string; wrap?: boolean }) {
  return (
    <pre
      role="region"
      aria-label={label}
      tabIndex={0}
      className={`max-h-96 overflow-auto rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-xs leading-relaxed text-zinc-900 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-100 ${
        wrap ? 'whitespace-pre-wrap [overflow-wrap:anywhere]' : 'whitespace-pre'
      }`}
    >
      {text}
    </pre>
  );
}
