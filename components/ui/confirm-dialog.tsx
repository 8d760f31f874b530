'use client';

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

// What Tab can reach inside the dialog.
const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), textarea:not(:disabled), select:not(:disabled), [tabindex]:not([tabindex="-1"])';

/**
 * A modal question before something that cannot be undone. A native
 * `<dialog>` opened with showModal(): the rest of the page is inert while it
 * is open, Escape cancels, and focus starts on Cancel (the safe answer) and
 * goes back to where it was when the dialog closes. Tab goes round the
 * dialog's controls: past the last one the browser would otherwise take
 * focus out to its own toolbar.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busyLabel = confirmLabel,
  busy = false,
  typeToConfirm,
  ready = true,
  wide = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** the confirm button's label while `busy` */
  busyLabel?: string;
  /** the action is running: both buttons wait */
  busy?: boolean;
  /** when set, the operator must type this word before confirming (forgetting everything) */
  typeToConfirm?: string;
  /** false while what the dialog asks for is not filled in yet (an edit that is not valid): the confirm button waits */
  ready?: boolean;
  /** room for an editor: most of the window's width */
  wide?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const typedId = useId();
  const [typed, setTyped] = useState('');
  const confirmed = typeToConfirm === undefined || typed.trim() === typeToConfirm;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      // Remembered by hand as well: the element that opened the dialog may
      // re-render meanwhile, and the browser's own return of focus then misses.
      const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setTyped('');
      element.showModal();
      cancel.current?.focus();
      return () => {
        if (element.open) element.close();
        if (opener?.isConnected) opener.focus();
      };
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      // Escape: the browser closes the dialog; the state that opened it must follow.
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Tab') return;
        const reachable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
        const [first, last] = [reachable[0], reachable.at(-1)];
        if (!first || !last) return;
        const at = document.activeElement;
        if (event.shiftKey && (at === first || at === event.currentTarget)) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && at === last) {
          event.preventDefault();
          first.focus();
        }
      }}
      className={`m-auto ${wide ? 'w-[min(56rem,calc(100vw-2rem))]' : 'w-[min(28rem,calc(100vw-2rem))]'} rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100`}
    >
      {open && (
        <div className="space-y-4 p-5">
          <h2 id={titleId} className="text-lg font-semibold [overflow-wrap:anywhere]">
            {title}
          </h2>
          <div id={bodyId} className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
            {children}
          </div>
          {typeToConfirm !== undefined && (
            <div className="space-y-1">
              <label htmlFor={typedId} className="block text-sm">
                Type <strong className="font-mono">{typeToConfirm}</strong> to confirm
              </label>
              <input
                id={typedId}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                className="w-full rounded border border-zinc-300 bg-white px-2 py-1 font-mono dark:border-zinc-600 dark:bg-zinc-800"
              />
            </div>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <button ref={cancel} type="button" onClick={onCancel} disabled={busy} className="button-secondary">
              Cancel
            </button>
            <button type="button" onClick={onConfirm} disabled={busy || !confirmed || !ready} className="button-danger">
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
