'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal question before something that cannot be undone. A native
 * `<dialog>` opened with showModal(): the rest of the page is inert while it
 * is open, Escape cancels, and focus starts on Cancel (the safe answer) and
 * goes back to where it was when the dialog closes.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busyLabel,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      // Remembered by hand as well: the element that opened the dialog may
      // re-render meanwhile, and the browser's own return of focus then misses.
      const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
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
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      {open && (
        <div className="space-y-4 p-5">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <div id={bodyId} className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
            {children}
          </div>
          <div className="flex flex-wrap justify-end gap-2">
            <button ref={cancel} type="button" onClick={onCancel} disabled={busy} className="button-secondary">
              Cancel
            </button>
            <button type="button" onClick={onConfirm} disabled={busy} className="button-danger">
              {busy ? busyLabel : confirmLabel}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
