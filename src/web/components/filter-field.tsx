import type { ReactNode } from 'react';

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
 * per item. `onChange` gets the chosen value, empty for none.
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
  options?: readonly { value: string; label: string }[];
}) {
  return (
    <FilterField id={id} label={label}>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        <SelectOptions all={all} options={options} />
      </select>
    </FilterField>
  );
}

/** A filter's options: "any" or "all" first (the empty value), then one per item. */
export function SelectOptions({ all, options }: { all: string; options: readonly { value: string; label: string }[] }) {
  return (
    <>
      <option value="">{all}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
  );
}
