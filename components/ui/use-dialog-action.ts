import { useState, useTransition } from 'react';
import { useToast } from './toaster';

/**
 * A dialog that runs one server action: `run` runs it in a transition, says
 * `noAnswer` when the server did not answer (the change may or may not have
 * happened), then closes the dialog and refreshes what the change touched.
 * The action toasts its own answer.
 */
export function useDialogAction(noAnswer: string, refresh: () => Promise<unknown>) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [busy, startAction] = useTransition();
  const run = (action: () => Promise<void>) =>
    startAction(async () => {
      try {
        await action();
      } catch {
        toast.error(noAnswer);
      }
      setOpen(false);
      await refresh();
    });
  return { open, setOpen, busy, run, toast };
}
