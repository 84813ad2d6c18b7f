// @vitest-environment jsdom
// The day-range controls as a user works them: the calls list's custom range (two small day fields
// that bound each other and clear to "no day") and the plain from/to fields of the audit log,
// calibration sample and machine-agreement filters.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement as h } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DateRangeField, DayFields } from '../../src/web/components/DateRange.tsx';
import { I18nProvider } from '../../src/web/i18n/index.tsx';

// biome-ignore lint/correctness/noChildrenProp: without JSX, the provider's prop types want children as a prop.
const inEnglish = (node: ReturnType<typeof h>) => render(h(I18nProvider, { lang: 'en', children: node }));

afterEach(cleanup);

describe('the calls list custom range', () => {
  it('shows two day fields that bound each other, and a cleared one means no day', () => {
    const onChange = vi.fn();
    inEnglish(h(DateRangeField, { from: '2024-03-02', to: '2024-03-20', onChange }));
    const range = screen.getByRole('group', { name: 'Custom range' });
    const [from, to] = Array.from(range.querySelectorAll('input')) as HTMLInputElement[];
    expect(from!.type).toBe('date');
    expect([from!.value, from!.max, from!.min]).toEqual(['2024-03-02', '2024-03-20', '']);
    expect([to!.value, to!.min, to!.max]).toEqual(['2024-03-20', '2024-03-02', '']);
    expect(from!.getAttribute('aria-label')).not.toBe(to!.getAttribute('aria-label'));

    fireEvent.change(from!, { target: { value: '2024-03-05' } });
    expect(onChange).toHaveBeenLastCalledWith({ from: '2024-03-05', to: '2024-03-20' });
    fireEvent.change(to!, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith({ from: '2024-03-02', to: null });
  });
});

describe('from/to day fields', () => {
  it('are labelled, report each day on its own, and bound each other only when linked', () => {
    const onFrom = vi.fn();
    const onTo = vi.fn();
    const props = { from: '2024-01-01', to: '2024-01-31', labels: ['Start', 'End'] as [string, string], onFrom, onTo };
    const { rerender } = inEnglish(h(DayFields, props));
    const start = screen.getByLabelText('Start') as HTMLInputElement;
    const end = screen.getByLabelText('End') as HTMLInputElement;
    expect([start.type, start.max, end.min]).toEqual(['date', '', '']);

    fireEvent.change(end, { target: { value: '2024-02-10' } });
    expect(onTo).toHaveBeenCalledWith('2024-02-10');
    expect(onFrom).not.toHaveBeenCalled();

    // biome-ignore lint/correctness/noChildrenProp: as above.
    rerender(h(I18nProvider, { lang: 'en', children: h(DayFields, { ...props, linked: true }) }));
    expect([start.max, end.min]).toEqual(['2024-01-31', '2024-01-01']);
  });
});
