'use client';

import { useEffect, useState } from 'react';

type CopyState = 'idle' | 'copied' | 'failed';

const SAID_FOR_MS = 2_000;

/**
 * Copies `text` to the clipboard and says so next to the button, in a live
 * region so a screen reader hears it too. The clipboard can be refused (an
 * insecure origin, a denied permission): then it says to copy by hand.
 */
export function CopyButton({ text, label, name }: { text: string; label: string; /** the button's accessible name when several copy buttons share a label; it starts with the label */ name?: string }) {
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), SAID_FOR_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <span className="inline-flex items-center gap-2">
      <button type="button" onClick={copy} aria-label={name} className="button-secondary px-2 py-0.5 text-xs">
        {label}
      </button>
      <span aria-live="polite" className={`text-xs ${state === 'failed' ? 'text-red-700 dark:text-red-400' : 'text-emerald-700 dark:text-emerald-400'}`}>
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy; select the text and copy it instead' : ''}
      </span>
    </span>
  );
}
