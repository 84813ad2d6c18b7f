/**
 * The server writes each status-history step's detail in English ("accepted via api", "score 80
 * with Support QA"). These are the forms it writes (src/intake/accept.ts, src/calls/*-call.ts,
 * src/calls/reanalyze.ts); each becomes a message in the UI language, anything else stays as sent.
 */
import type { MessageKey } from '../i18n/index.tsx';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

const FORMS: [RegExp, (m: RegExpExecArray, t: Translate) => string][] = [
  [/^accepted via (api|upload)$/, (m, t) => t(m[1] === 'api' ? 'history.viaApi' : 'history.viaUpload')],
  [/^attempt (\d+)$/, (m, t) => t('history.attempt', { n: Number(m[1]) })],
  [/^template (.+)$/, (m, t) => t('history.template', { name: m[1]! })],
  [/^no template applies( any more)?$/, (_m, t) => t('history.noTemplate')],
  [/^score (\S+) with (.+)$/, (m, t) => t('history.score', { score: m[1] === 'n/a' ? '—' : m[1]!, name: m[2]! })],
  [/^re-analysis requested by user \S+$/, (_m, t) => t('history.reanalysis')],
  [/^analysis failed: /, (_m, t) => t('history.analysisFailed')],
  [/^(undecodable|no_speech|unsupported_language|too_long)$/, (m, t) => t(`failure.${m[1]}` as MessageKey)],
  [/^internal_error$/, (_m, t) => t('failure.unknown')],
];

export function historyDetail(detail: string, t: Translate): string {
  for (const [pattern, render] of FORMS) {
    const m = pattern.exec(detail);
    if (m) return render(m, t);
  }
  return detail;
}
