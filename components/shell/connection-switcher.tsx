'use client';

import { useId, useState } from 'react';
import { switchConnection } from '@/app/actions';
import { useToast } from '@/components/ui/toaster';
import { withConnection } from '@/lib/routes';

export interface ConnectionChoice {
  name: string;
  label: string;
  readOnly: boolean;
  /** the driver whose keys it holds, as LAYOUT_TITLES names it */
  layout: string;
}

const LAYOUT_NOTE = 'rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300';

/**
 * Which Redis the pages show, and the choice of another when there are
 * several. Switching loads the page again, so nothing on screen mixes two
 * connections.
 */
export function ConnectionSwitcher({ current, choices }: { current: string; choices: readonly ConnectionChoice[] }) {
  const id = useId();
  const { switching, switchTo } = useConnectionSwitch();
  const shown = choices.find((choice) => choice.name === current);
  if (choices.length < 2) {
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Redis: <span className="font-medium text-zinc-900 dark:text-zinc-100">{shown?.label ?? current}</span>
        {shown?.readOnly && ' (read-only)'} {shown && <span className={LAYOUT_NOTE}>{shown.layout}</span>}
      </p>
    );
  }
  return (
    <p className="flex min-w-0 max-w-full items-center gap-2 text-sm">
      <label htmlFor={id} className="text-zinc-600 dark:text-zinc-400">
        Redis
      </label>
      <select
        id={id}
        value={current}
        disabled={switching}
        onChange={(event) => void switchTo(event.target.value)}
        className="min-w-0 max-w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-800"
      >
        {choices.map((choice) => (
          <option key={choice.name} value={choice.name}>
            {choice.label}
            {choice.readOnly ? ' (read-only)' : ''} · {choice.layout}
          </option>
        ))}
      </select>
    </p>
  );
}

/**
 * Switches this browser to another connection and loads the page again,
 * its address naming the connection switched to: the same page shows it,
 * where the address it had (naming the one switched from) would show a
 * note that the page is on another connection. A refusal is a toast and
 * the page stays as it is.
 */
export function useConnectionSwitch() {
  const toast = useToast();
  const [switching, setSwitching] = useState(false);
  const switchTo = async (name: string) => {
    setSwitching(true);
    const result = await switchConnection(name).catch(() => ({ ok: false as const, error: 'Cannot reach the QueueLens server.' }));
    if (result.ok) {
      const { pathname, search, hash } = window.location;
      const address = withConnection(`${pathname}${search}${hash}`, name);
      // An address that names it already: a replace by the same address with a fragment would only scroll.
      if (address === `${pathname}${search}${hash}`) window.location.reload();
      else window.location.replace(address);
      return;
    }
    setSwitching(false);
    toast.error(result.error);
  };
  return { switching, switchTo };
}
