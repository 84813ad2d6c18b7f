/** A select field over a list of things (agents, campaigns, templates, roles, reasons…). */
import type { ComponentProps, ReactNode } from 'react';
import { LANGUAGE_CODES, useLanguageName } from './call-bits.tsx';
import { SelectField } from './ui.tsx';

/** One choice: its value and what the option says. */
export interface Item {
  id: string;
  name: ReactNode;
}

/**
 * A SelectField with one option per item, after a first one for "none of them" (`none`: "All
 * agents", "No campaign") when given; `onValue` gets the chosen value.
 */
export function ItemSelect({
  items,
  none,
  onValue,
  ...field
}: Omit<ComponentProps<typeof SelectField>, 'onChange' | 'children'> & {
  items: readonly Item[];
  none?: ReactNode;
  onValue: (value: string) => void;
}) {
  return (
    <SelectField {...field} onChange={(e) => onValue(e.target.value)}>
      {none !== undefined && <option value="">{none}</option>}
      {items.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </SelectField>
  );
}

/** Every language the app knows, by name in the UI's language: Spanish and English first. */
export function useLanguageItems(): Item[] {
  const langName = useLanguageName();
  return ['es', 'en']
    .concat(LANGUAGE_CODES.filter((c) => c !== 'es' && c !== 'en'))
    .map((c) => ({ id: c, name: langName(c) }));
}
