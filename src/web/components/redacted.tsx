import { Fragment, type ReactNode } from 'react';
import { type MessageKey, useT } from '../i18n/index.tsx';
import { Alert } from './ui.tsx';

const PLACEHOLDER = /\[(CARD_NUMBER|CVV|CARD_EXPIRY|IBAN|DNI_NIE|SSN|EMAIL|PHONE)\]/g;

/**
 * A transcript line with redaction placeholders shown as labelled marks and the words the
 * recogniser was unsure of underlined (`uncertain`: indexes into `text.split(' ')`).
 */
export function TranscriptText({ text, uncertain }: { text: string; uncertain: readonly number[] }) {
  const { t } = useT();
  if (uncertain.length === 0) return <RedactedText text={text} />;
  const unsure = new Set(uncertain);
  return (
    <>
      {text.split(' ').map((word, i) => (
        <Fragment key={i}>
          {i > 0 && ' '}
          {unsure.has(i) ? (
            <span className="uncertain" title={t('transcript.uncertain')}>
              {word}
            </span>
          ) : (
            <RedactedText text={word} />
          )}
        </Fragment>
      ))}
    </>
  );
}

/** Transcript text with each redaction placeholder shown as a marked, labelled span. */
export function RedactedText({ text }: { text: string }) {
  const { t } = useT();
  if (!text.includes('[')) return <>{text}</>;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    parts.push(text.slice(at, m.index));
    const label = t(`redaction.kind.${m[1]}` as MessageKey);
    parts.push(
      <mark key={m.index} className="redacted" title={t('redaction.redactedTitle', { kind: label })}>
        {label}
      </mark>,
    );
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}

/** Says on the call page that the transcript (and the recording) were redacted. */
export function RedactionNotice({ count, audio }: { count: number; audio: boolean }) {
  const { t } = useT();
  if (count === 0) return null;
  return (
    <Alert tone="blue">
      {audio ? t('redaction.audioNotice', { n: count }) : t('redaction.textNotice', { n: count })}
    </Alert>
  );
}
