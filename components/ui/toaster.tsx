'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { MAIN_CONTENT_ID } from './skip-link';

/**
 * Short-lived outcomes of what the operator just did (a retry, a forget),
 * for pages with mutations:
 *
 *   const toast = useToast();
 *   const result = await retryJobs(input);
 *   if (result.ok) toast.success(`Requeued ${result.requeued} jobs`); else toast.error(result.error);
 *
 * Successes are announced politely, errors at once; both go away by
 * themselves, except while the pointer or focus is on them, and each has a
 * dismiss button that Escape also triggers.
 *
 * A new toast takes the focus: it is the outcome of what the operator just
 * did, and the control they used is often gone with its row, which would
 * leave focus on the page's body. Dismissed while focused, it hands focus to
 * the page's main content, so the next Tab goes on there.
 */
export interface ToastApi {
  /** `action`: one button beside the message, such as Undo after a forget; it dismisses the toast when pressed */
  success(message: string, action?: ToastAction): void;
  error(message: string): void;
}

export interface ToastAction {
  label: string;
  run(): void;
}

type Tone = 'success' | 'error';

interface Toast {
  id: number;
  tone: Tone;
  message: string;
  action?: ToastAction;
}

// Errors stay longer: they usually need reading, and sometimes copying.
const DURATION_MS: Record<Tone, number> = { success: 5_000, error: 10_000 };
const MAX_SHOWN = 4;

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (api === null) throw new Error('useToast needs a <ToastProvider> above it; app/layout.tsx mounts one around every page');
  return api;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const lastId = useRef(0);
  const dismiss = useCallback((id: number) => setToasts((shown) => shown.filter((toast) => toast.id !== id)), []);
  const api = useMemo<ToastApi>(() => {
    const show = (tone: Tone, message: string, action?: ToastAction) => {
      const toast = { id: ++lastId.current, tone, message, action };
      setToasts((shown) => [...shown, toast].slice(-MAX_SHOWN));
    };
    return { success: (message, action) => show('success', message, action), error: (message) => show('error', message) };
  }, []);

  return (
    <ToastContext value={api}>
      {children}
      <div className="pointer-events-none fixed right-0 bottom-0 z-50 flex w-full max-w-sm flex-col gap-2 p-4">
        {toasts
          .filter((toast) => toast.tone === 'error')
          .map((toast) => (
            // role=alert is announced as it appears, so each error brings its own.
            <ToastCard key={toast.id} toast={toast} role="alert" dismiss={dismiss} />
          ))}
        {/* A polite region is announced only when content changes inside it, so it is always there. */}
        <div role="status" aria-live="polite" className="flex flex-col gap-2">
          {toasts
            .filter((toast) => toast.tone === 'success')
            .map((toast) => (
              <ToastCard key={toast.id} toast={toast} dismiss={dismiss} />
            ))}
        </div>
      </div>
    </ToastContext>
  );
}

const TONE_CLASSES: Record<Tone, string> = {
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-50',
  error: 'border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50',
};

function ToastCard({ toast, role, dismiss }: { toast: Toast; role?: 'alert'; dismiss: (id: number) => void }) {
  const [pointerOn, setPointerOn] = useState(false);
  const [focusIn, setFocusIn] = useState(false);
  const card = useRef<HTMLDivElement>(null);
  const held = pointerOn || focusIn;
  const { id, tone } = toast;

  useEffect(() => {
    card.current?.focus();
  }, []);

  useEffect(() => {
    if (held) return;
    // Starts over when released: the reader gets the whole time again.
    const timer = setTimeout(() => dismiss(id), DURATION_MS[tone]);
    return () => clearTimeout(timer);
  }, [held, id, tone, dismiss]);

  const close = () => {
    if (card.current?.contains(document.activeElement)) document.getElementById(MAIN_CONTENT_ID)?.focus();
    dismiss(id);
  };

  const leaveFocus = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setFocusIn(false);
  };

  return (
    <div
      ref={card}
      role={role}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === 'Escape') close();
      }}
      onMouseEnter={() => setPointerOn(true)}
      onMouseLeave={() => setPointerOn(false)}
      onFocus={() => setFocusIn(true)}
      onBlur={leaveFocus}
      className={`pointer-events-auto flex items-start gap-3 rounded-md border px-4 py-3 shadow-lg ${TONE_CLASSES[tone]}`}
    >
      <p className="min-w-0 flex-1 text-sm break-words">{toast.message}</p>
      {toast.action && (
        <button
          type="button"
          onClick={() => {
            toast.action?.run();
            close();
          }}
          className="rounded border border-current px-2 py-0.5 text-sm font-medium"
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" aria-label="Dismiss notification" onClick={close} className="-m-1 rounded p-1 leading-none opacity-70 hover:opacity-100">
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
