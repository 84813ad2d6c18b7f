/** How pages run mutations and show their typed failures: as a toast, or as a form's error. */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useToast } from '../components/ui.tsx';
import { useT } from '../i18n/index.tsx';
import { describeError, type Outcome } from './errors.ts';

/**
 * Reports a mutation's outcome as a toast: the failure in words as an error toast, otherwise
 * `success` when one is given. Returns whether it succeeded, for callers that follow up.
 */
export function useOutcomeToast() {
  const i18n = useT();
  const toast = useToast();
  return <T>(out: Outcome<T>, success?: ReactNode): out is Extract<Outcome<T>, { ok: true }> => {
    if (!out.ok) {
      toast(describeError(i18n, out.error), 'error');
      return false;
    }
    if (success !== undefined) toast(success);
    return true;
  };
}

/**
 * A form's submit handler around one mutation: keeps the page from reloading, clears the last
 * error, runs `run`, and keeps a failure in words in `error` (for an Alert or a field); on success
 * `onSuccess` gets the value. `pending` is true while it runs (the submit button's spinner).
 */
export function useFormMutation<T>(run: () => Promise<Outcome<T>>, onSuccess: (value: T) => void) {
  const i18n = useT();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setPending(true);
    const out = await run().finally(() => setPending(false));
    if (!out.ok) {
      setError(describeError(i18n, out.error));
      return;
    }
    onSuccess(out.value);
  };
  return { error, submit, pending };
}

/**
 * A dialog's form that saves something: `run`, then the toast `saved` (words, or words made from
 * what was saved), the page's reload (`onSaved`), and the dialog closes (`onClose`).
 */
export function useDialogSave<T>(
  run: () => Promise<Outcome<T>>,
  saved: ReactNode | ((value: T) => ReactNode),
  { onSaved, onClose }: { onSaved: () => void; onClose: () => void },
) {
  const toast = useToast();
  return useFormMutation(run, (value) => {
    toast(typeof saved === 'function' ? saved(value) : saved);
    onSaved();
    onClose();
  });
}

/**
 * Redelivering a webhook by hand, with the answer as a toast (the receiver's status, or why it
 * failed). `busy` is the delivery being redelivered; `onDone` runs after every attempt.
 */
export function useRedeliver(
  redeliver: (deliveryId: string) => Promise<Outcome<{ statusCode?: number | null; error?: string | null }>>,
  onDone: () => void,
) {
  const { t } = useT();
  const toast = useToast();
  const report = useOutcomeToast();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (deliveryId: string) => {
    setBusy(deliveryId);
    const out = await redeliver(deliveryId);
    setBusy(null);
    if (report(out)) {
      if (out.value.statusCode && out.value.statusCode < 300)
        toast(t('webhook.redelivered', { status: out.value.statusCode }));
      else
        toast(t('webhook.redeliverFailed', { reason: out.value.error ?? String(out.value.statusCode ?? '') }), 'error');
    }
    onDone();
  };
  return { busy, run };
}
