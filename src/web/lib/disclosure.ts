import { type FocusEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';

/**
 * A button that opens a panel of controls (the filters' multi-selects, the column picker). The panel
 * closes on a click outside the widget, on Escape from any control inside it (focus goes back to the
 * button, so a keyboard user is not stranded) and when focus leaves the widget. Spread `rootProps`
 * on the element that holds both the button and the panel; give `button` to the button.
 */
export function useDisclosure() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  const rootProps = {
    ref: root,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Escape' && open) {
        e.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }
    },
    onBlur: (e: FocusEvent) => {
      if (open && !root.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
    },
  };
  return { open, setOpen, button, rootProps };
}
