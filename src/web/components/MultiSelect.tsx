/**
 * A filter that takes several values: a button that reads like a select ("All agents", "Ana",
 * "3 agents") and opens a list of checkboxes. Keyboard: Enter/Space opens, Tab moves through the
 * boxes, Escape closes and gives the focus back to the button; a click outside closes too.
 */
import { useId } from 'react';
import { useT } from '../i18n/index.tsx';
import { useDisclosure } from '../lib/disclosure.ts';
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
  const { open, setOpen, button, rootProps } = useDisclosure();
  const listId = useId();
  const labelId = `${id}-label`;

  const chosen = options.filter((o) => value.includes(o.value));
  const shown =
    value.length === 0 ? allLabel : value.length === 1 ? (chosen[0]?.label ?? countLabel(1)) : countLabel(value.length);
  const flip = (v: string, on: boolean) => onChange(on ? [...value, v] : value.filter((x) => x !== v));

  return (
    <div className="field multi-select" {...rootProps}>
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
