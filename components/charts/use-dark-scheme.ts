'use client';

import { useSyncExternalStore } from 'react';

const DARK = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(DARK);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the page is dark now, following the system as the stylesheet does
 * (Tailwind's media-based `dark:`), for what CSS cannot colour: a canvas.
 * Light on the server, whose render has no canvas to colour.
 */
export function useDarkScheme(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(DARK).matches,
    () => false,
  );
}
