import { type ChangeEvent, useState } from 'react';

/**
 * A text field's state as the props to spread on it (`value`, `onChange`): what the user typed,
 * from `initial` (the thing being changed, or nothing for a new one).
 */
export function useTextInput(initial = '') {
  const [value, setValue] = useState(initial);
  return { value, onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValue(e.target.value) };
}
