/**
 * "Columns" on the calls list: which optional columns show (Campaign, Language, Topic), remembered in
 * this browser. A button that opens a list of checkboxes, like MultiSelect: Enter/Space opens, Tab
 * moves through the boxes, Escape closes and gives the focus back to the button. Each box starts
 * as the width has it; "Fit to the window" forgets the choices.
 */
import { useId, useRef } from 'react';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { columnShown, type ColumnChoice, type OptionalColumn } from '../lib/call-columns.ts';
import { useDisclosure } from '../lib/disclosure.ts';
import { Icon } from './Icon.tsx';

const LABEL: Record<OptionalColumn, MessageKey> = {
  campaign: 'calls.col.campaign',
  language: 'calls.col.language',
  topic: 'calls.col.topic',
};

export function ColumnPicker({
  columns,
  choice,
  width,
  onChange,
  onReset,
}: {
  /** The optional columns this view has (Topic only in the analyzed view). */
  columns: readonly OptionalColumn[];
  choice: ColumnChoice;
  width: number;
  onChange: (column: OptionalColumn, shown: boolean) => void;
  onReset: () => void;
}) {
  const { t } = useT();
  const { open, setOpen, button, rootProps } = useDisclosure();
  const popId = useId();
  const boxes = useRef<HTMLFieldSetElement>(null);

  const chosen = columns.some((c) => choice[c] !== undefined);
  return (
    <div className="column-picker" {...rootProps}>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-sm"
        aria-expanded={open}
        aria-controls={popId}
        onClick={() => setOpen((o) => !o)}
        data-testid="column-picker"
      >
        <Icon name="eye" /> {t('calls.columns')}
      </button>
      <div className="multi-select-pop column-picker-pop" id={popId} hidden={!open}>
        <fieldset ref={boxes}>
          <legend className="small strong">{t('calls.columnsLegend')}</legend>
          {columns.map((c) => (
            <label key={c} className="multi-select-option">
              <input
                type="checkbox"
                checked={columnShown(c, choice, width)}
                onChange={(e) => onChange(c, e.target.checked)}
                data-testid={`column-${c}`}
              />
              <span>{t(LABEL[c])}</span>
            </label>
          ))}
        </fieldset>
        <p className="muted small column-picker-note">{t('calls.columnsAlways')}</p>
        {chosen && (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              onReset();
              // The button goes away with the choices: focus stays in the list, on its first box.
              boxes.current?.querySelector('input')?.focus();
            }}
            data-testid="column-reset"
          >
            <Icon name="refresh" size={12} /> {t('calls.columnsFit')}
          </button>
        )}
      </div>
    </div>
  );
}
