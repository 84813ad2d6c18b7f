import { useT } from '../i18n/index.tsx';
import { useFormat } from '../lib/format.ts';
import { Alert } from './ui.tsx';

/**
 * Mono recordings: says that the agent and customer turns come from separating the two voices
 * automatically (and how sure that is), or that only one voice could be told apart.
 */
export function SpeakersNotice({ diarized, confidence }: { diarized: boolean; confidence: number | null }) {
  const { t } = useT();
  const fmt = useFormat();
  if (confidence === null) return null;
  // Intl writes the sign as each language does: "57%" in English, "57 %" in Spanish.
  const percent = fmt.percent(confidence);
  return (
    <Alert tone={diarized ? 'blue' : 'amber'}>
      {diarized ? t('speakers.separated', { percent }) : t('speakers.notSeparated', { percent })}
    </Alert>
  );
}
