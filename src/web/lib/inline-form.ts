/**
 * An inline form opened by a button in a row (Override, Dispute, Answer a dispute), with the focus
 * handled as the modal dialogs handle it (issue 26): opening moves the focus to the form's first
 * field, Escape cancels and gives the focus back to the button that opened it, and after saving the
 * focus goes back to the row (its button when it is still there, else the row itself), never to the
 * page body. The form is marked `data-inline-form`, so the player's shortcuts leave its keys alone.
 */
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';

const FIELDS = 'select, textarea, input, button, [tabindex]:not([tabindex="-1"])';

export function useInlineForm() {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement | null>(null);
  const row = useRef<HTMLElement | null>(null);
  const form = useRef<HTMLDivElement | null>(null);
  /** Where the focus goes once the form has closed (set by cancel and done). */
  const after = useRef<'opener' | 'row' | null>(null);

  useEffect(() => {
    if (open) {
      form.current?.querySelector<HTMLElement>(FIELDS)?.focus();
      return;
    }
    const to = after.current;
    after.current = null;
    if (!to) return;
    const target = to === 'opener' && opener.current?.isConnected ? opener.current : row.current;
    target?.focus();
  }, [open]);

  const cancel = useCallback(() => {
    after.current = 'opener';
    setOpen(false);
  }, []);
  /** After a save: back to the row (its opener when it is still shown, as after Override). */
  const done = useCallback((to: 'opener' | 'row' = 'opener') => {
    after.current = to;
    setOpen(false);
  }, []);
  const onKeyDown = useCallback(
    (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      cancel();
    },
    [cancel],
  );
  const rowRef = useCallback((el: HTMLElement | null) => {
    row.current = el;
  }, []);
  return {
    open,
    /** For the row's `ref`: where the focus goes back to when the opener is gone. */
    rowRef,
    show: () => setOpen(true),
    cancel,
    done,
    opener,
    formProps: { ref: form, onKeyDown, 'data-inline-form': '' },
  };
}
