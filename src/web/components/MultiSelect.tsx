/**
 * A filter that takes several values: a button that reads like a select ("All agents", "Ana",
 * "3 agents") and opens a list of checkboxes. Keyboard: Enter/Space opens, Tab moves through the
 * boxes, Escape closes and gives the focus back to the button; a click outside closes too.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../i18n/index.tsx';
import { Icon } from './Icon.tsx';

export interface MultiOption {
  value: string;
  label: string;
}

export function MultiSelect({
  id,
  label,
  allLabel,
  countLabel,
  options,
  value,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  /** Shown when nothing is chosen ("All agents"). */
  allLabel: string;
  /** Shown when several are chosen ("3 agents"). */
  countLabel: (n: number) => string;
  options: MultiOption[];
  value: string[];
  onChange: (next: string[]) => void;
  disabled?: boolean;
}) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const labelId = `${id}-label`;

  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  const chosen = options.filter((o) => value.includes(o.value));
  const shown =
    value.length === 0 ? allLabel : value.length === 1 ? (chosen[0]?.label ?? countLabel(1)) : countLabel(value.length);
  const flip = (v: string, on: boolean) => onChange(on ? [...value, v] : value.filter((x) => x !== v));

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: delegated handlers only — Escape in any control inside (the button or a checkbox) closes the list, and focus leaving the whole widget closes it; the controls themselves are the interactive elements.
    <div
      className="field multi-select"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
      onBlur={(e) => {
        if (open && !root.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <span className="label" id={labelId}>
        {label}
      </span>
      <button
        ref={button}
        id={id}
        type="button"
        className="select multi-select-button"
        aria-expanded={open}
        aria-controls={listId}
        aria-labelledby={`${labelId} ${id}`}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
        data-testid={id}
      >
        <span className="truncate">{shown}</span>
      </button>
      <div className="multi-select-pop" id={listId} hidden={!open}>
        <fieldset>
          <legend className="sr-only">{label}</legend>
          {options.length === 0 && <p className="muted small">—</p>}
          {options.map((o) => (
            <label key={o.value} className="multi-select-option">
              <input
                type="checkbox"
                checked={value.includes(o.value)}
                onChange={(e) => flip(o.value, e.target.checked)}
              />
              <span>{o.label}</span>
            </label>
          ))}
        </fieldset>
        {value.length > 0 && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange([])}>
            <Icon name="x" size={12} /> {t('calls.clearChoice')}
          </button>
        )}
      </div>
    </div>
  );
}
