/**
 * The calls list's optional columns. Left alone, they give way to the width (styles.css hides
 * Language, Campaign and Topic below the widths here, so Score always fits); a user who picks them
 * in "Columns" gets exactly that in this browser (localStorage), whatever the width — the Score
 * column is sticky, so a table made wider than the window still shows it.
 */
import { useCallback, useEffect, useState } from 'react';

export const OPTIONAL_COLUMNS = ['campaign', 'language', 'topic'] as const;
export type OptionalColumn = (typeof OPTIONAL_COLUMNS)[number];

/** Below this window width the column is hidden unless chosen (the same numbers as styles.css). */
export const HIDDEN_BELOW: Record<OptionalColumn, number> = { language: 1600, campaign: 1280, topic: 1100 };

/** What the user chose per column; a column missing here follows the width. */
export type ColumnChoice = Partial<Record<OptionalColumn, boolean>>;

const KEY = 'escucha.callColumns';

export function parseColumnChoice(raw: string | null): ColumnChoice {
  try {
    const v = JSON.parse(raw ?? '{}') as Record<string, unknown>;
    const out: ColumnChoice = {};
    for (const c of OPTIONAL_COLUMNS) if (typeof v?.[c] === 'boolean') out[c] = v[c] as boolean;
    return out;
  } catch {
    return {};
  }
}

/** Whether `column` shows at a window `width`: the user's choice, else the width's. */
export function columnShown(column: OptionalColumn, choice: ColumnChoice, width: number): boolean {
  return choice[column] ?? width >= HIDDEN_BELOW[column];
}

/** The table's data attributes that carry the choices to styles.css (`data-col-topic="show"`). */
export function columnAttributes(choice: ColumnChoice): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of OPTIONAL_COLUMNS) if (choice[c] !== undefined) out[`data-col-${c}`] = choice[c] ? 'show' : 'hide';
  return out;
}

function readChoice(): ColumnChoice {
  try {
    return parseColumnChoice(window.localStorage.getItem(KEY));
  } catch {
    return {};
  }
}

/** The remembered choice, a setter (null: back to following the width), and the window width. */
export function useColumnChoice(): {
  choice: ColumnChoice;
  setColumn: (column: OptionalColumn, shown: boolean | null) => void;
  reset: () => void;
  width: number;
} {
  const [choice, setChoice] = useState<ColumnChoice>(readChoice);
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const save = useCallback((next: ColumnChoice) => {
    setChoice(next);
    try {
      if (Object.keys(next).length) window.localStorage.setItem(KEY, JSON.stringify(next));
      else window.localStorage.removeItem(KEY);
    } catch {
      // storage disabled: the choice lasts until the page is left
    }
  }, []);
  const setColumn = useCallback(
    (column: OptionalColumn, shown: boolean | null) => {
      const next = { ...choice };
      if (shown === null) delete next[column];
      else next[column] = shown;
      save(next);
    },
    [choice, save],
  );
  const reset = useCallback(() => save({}), [save]);
  return { choice, setColumn, reset, width };
}
