import { useEffect, useRef, useState } from 'react';
import { setStepUpHandler } from '../lib/api';
// A type only (erased from the bundle): the form itself is imported when first asked for.
import type { StepUpDialog } from './StepUpDialog';

type StepUpForm = typeof StepUpDialog;

/**
 * Step-up: a dangerous action (a full-access admin added or promoted, another admin
 * reset, participants deleted or destroyed, the whole list exported, the subject access download)
 * answered that this session must prove itself again. The person types their password and a new
 * authenticator code; the console then sends the same request once more (lib/api.ts). Cancel
 * leaves the action undone and the session as it was.
 *
 * The form is loaded when first asked for: its fields and dialog would otherwise be part of every
 * signed-in page's first download, and most sessions never step up. It is loaded before the dialog
 * opens, outside rendering: if it cannot be loaded (a dropped connection, a release deployed since
 * the page was opened), the action is refused with the server's own step-up message instead of the
 * layout failing to render.
 */
export function StepUpHost() {
  const [form, setForm] = useState<{ Dialog: StepUpForm } | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  useEffect(() => {
    setStepUpHandler(async () => {
      let Dialog: StepUpForm;
      try {
        Dialog = (await import('./StepUpDialog')).StepUpDialog;
      } catch {
        return false;
      }
      return new Promise<boolean>((resolve) => {
        // A second request asking meanwhile waits for the same answer.
        const previous = resolver.current;
        resolver.current = (ok) => {
          previous?.(ok);
          resolve(ok);
        };
        setForm({ Dialog });
      });
    });
    return () => setStepUpHandler(null);
  }, []);

  function finish(ok: boolean) {
    setForm(null);
    const resolve = resolver.current;
    resolver.current = null;
    resolve?.(ok);
  }

  return form ? <form.Dialog onDone={() => finish(true)} onCancel={() => finish(false)} /> : null;
}
