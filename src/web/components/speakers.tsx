import { useT } from '../i18n/index.tsx';
import { Alert } from './ui.tsx';

/**
 * Mono recordings: says that the agent and customer turns come from separating the two voices
 * automatically (and how sure that is), or that only one voice could be told apart.
 */
export function SpeakersNotice({ diarized, confidence }: { diarized: boolean; confidence: number | null }) {
  const { t } = useT();
  if (confidence === null) return null;
  const percent = Math.round(confidence * 100);
  return (
    <Alert tone={diarized ? 'blue' : 'amber'}>
      {diarized ? t('speakers.separated', { percent }) : t('speakers.notSeparated', { percent })}
    </Alert>
  );
}
