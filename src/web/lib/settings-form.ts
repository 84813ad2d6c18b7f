import { useEffect, useRef, useState } from 'react';
import { useToast } from '../components/ui.tsx';
import type { Outcome } from './errors.ts';
import { useFormMutation } from './mutations.ts';

/**
 * A settings form: load → edit → save. Its fields take the saved values once they load (`ready`
 * stays false until then, so the form does not open on placeholders), a refetch that brings the
 * same values back does not wipe what the user is changing, and a save that succeeds says so.
 */
export function useSettingsForm<V extends object, T>(opts: {
  /** The saved values as the form edits them; undefined while loading. */
  saved: V | undefined;
  /** Sends the edited values. */
  save: (values: V) => Promise<Outcome<T>>;
  /** The toast once saved. */
  savedMessage: string;
  /** The values the fields show before the saved ones load. */
  initial: V;
}) {
  const toast = useToast();
  const [values, setValues] = useState<V>(opts.initial);
  const [ready, setReady] = useState(false);
  const latest = useRef(opts.saved);
  latest.current = opts.saved;
  // Keyed by content, so a refetch of the same values is no change.
  const key = opts.saved === undefined ? undefined : JSON.stringify(opts.saved);
  useEffect(() => {
    if (key === undefined || latest.current === undefined) return;
    setValues(latest.current);
    setReady(true);
  }, [key]);
  const set = (patch: Partial<V>) => setValues((old) => ({ ...old, ...patch }));
  /** A field's value and its change, for a field that edits the value `key` as it types it. */
  const field = <K extends keyof V>(key: K) => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => set({ [key]: e.target.value } as Partial<V>),
  });
  const { submit, error, pending } = useFormMutation(
    () => opts.save(values),
    () => toast(opts.savedMessage),
  );
  return { values, set, field, ready, submit, error, pending };
}
