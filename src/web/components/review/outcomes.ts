/** A criterion's three outcomes, their words and colours, shared by every review view. */
import type { MessageKey } from '../../i18n/index.tsx';

export type Outcome = 'PASSED' | 'FAILED' | 'NA';
export const OUTCOMES: Outcome[] = ['PASSED', 'FAILED', 'NA'];
export const outcomeKey = (o: Outcome) => `review.outcome.${o}` as MessageKey;
export const outcomeTone = (o: Outcome) => (o === 'PASSED' ? 'green' : o === 'FAILED' ? 'red' : 'gray');
