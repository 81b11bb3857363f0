import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { setStepUpHandler } from '../lib/api';

// Loaded when first asked for: the form (text fields, the dialog) would otherwise be part of every
// signed-in page's first download, and most sessions never step up.
const StepUpDialog = lazy(async () => ({ default: (await import('./StepUpDialog')).StepUpDialog }));

/**
 * Step-up (issue 32): a dangerous action (a full-access admin added or promoted, another admin
 * reset, participants deleted or destroyed, the whole list exported, the subject access download)
 * answered that this session must prove itself again. The person types their password and a new
 * authenticator code; the console then sends the same request once more (lib/api.ts). Cancel
 * leaves the action undone and the session as it was.
 */
export function StepUpHost() {
  const [open, setOpen] = useState(false);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  useEffect(() => {
    setStepUpHandler(
      () =>
        new Promise<boolean>((resolve) => {
          // A second request asking meanwhile waits for the same answer.
          const previous = resolver.current;
          resolver.current = (ok) => {
            previous?.(ok);
            resolve(ok);
          };
          setOpen(true);
        }),
    );
    return () => setStepUpHandler(null);
  }, []);

  function finish(ok: boolean) {
    setOpen(false);
    const resolve = resolver.current;
    resolver.current = null;
    resolve?.(ok);
  }

  return open ? (
    <Suspense fallback={null}>
      <StepUpDialog onDone={() => finish(true)} onCancel={() => finish(false)} />
    </Suspense>
  ) : null;
}
