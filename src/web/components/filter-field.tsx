import type { ReactNode } from 'react';
import type { Item } from './item-select.tsx';

/** A field of a filter bar: its label over its control (`id` is the control's). */
export function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/**
 * One of a filter bar's lists: "any" or "all" first (the empty value: no filter), then one option
 * per item (ItemSelect's items; its field has an id of its own, these filters name theirs). `onChange`
 * gets the chosen value, empty for none.
 */
export function FilterSelect({
  id,
  label,
  all,
  value,
  onChange,
  options = [],
}: {
  id: string;
  label: string;
  all: string;
  value: string;
  onChange: (value: string) => void;
  options?: readonly Item[];
}) {
  return (
    <FilterField id={id} label={label}>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </FilterField>
  );
}
