import { useMutation, useQuery } from 'urql';
import { SettingsCard } from '../components/forms.tsx';
import { Checkbox, SelectField } from '../components/ui.tsx';
import { type MessageKey, useT } from '../i18n/index.tsx';
import { outcome } from '../lib/errors.ts';
import { graphql } from '../lib/graphql.ts';
import { useSettingsForm } from '../lib/settings-form.ts';

const RedactionQuery = graphql(`
  query Redaction {
    account { id redaction { mode kinds } }
  }
`);

const SetRedaction = graphql(`
  mutation SetRedaction($mode: RedactionMode!, $kinds: [PiiKind!]!) {
    setRedaction(mode: $mode, kinds: $kinds) {
      __typename
      ... on Account { id redaction { mode kinds } }
      ... on Error { code message }
    }
  }
`);

type Mode = 'OFF' | 'TEXT' | 'TEXT_AUDIO';
type Kind = 'CARD_NUMBER' | 'CVV' | 'CARD_EXPIRY' | 'IBAN' | 'DNI_NIE' | 'SSN' | 'EMAIL' | 'PHONE';
const KINDS: Kind[] = ['CARD_NUMBER', 'CVV', 'CARD_EXPIRY', 'IBAN', 'DNI_NIE', 'SSN', 'EMAIL', 'PHONE'];

/** Admins: what is redacted from calls transcribed from now on. */
export function RedactionCard() {
  const { t } = useT();
  const [{ data }] = useQuery({ query: RedactionQuery });
  const [, save] = useMutation(SetRedaction);
  const saved = data?.account.redaction;
  const form = useSettingsForm<{ mode: Mode; kinds: readonly Kind[] }, unknown>({
    initial: { mode: 'OFF', kinds: KINDS },
    saved: saved && { mode: saved.mode, kinds: saved.kinds },
    save: async (v) =>
      outcome(await save({ mode: v.mode, kinds: KINDS.filter((k) => v.kinds.includes(k)) }), 'setRedaction'),
    savedMessage: t('redaction.saved'),
  });
  const { mode, kinds } = form.values;
  const toggle = (k: Kind) => form.set({ kinds: kinds.includes(k) ? kinds.filter((x) => x !== k) : [...kinds, k] });
  return (
    <SettingsCard title={t('redaction.title')} description={t('redaction.lead')} form={form} width={560}>
      <SelectField
        label={t('redaction.mode')}
        hint={t(`redaction.modeHint.${mode}` as MessageKey)}
        value={mode}
        onChange={(e) => form.set({ mode: e.target.value as Mode })}
      >
        {(['OFF', 'TEXT', 'TEXT_AUDIO'] as const).map((m) => (
          <option key={m} value={m}>
            {t(`redaction.mode.${m}` as MessageKey)}
          </option>
        ))}
      </SelectField>
      <fieldset className="stack" disabled={mode === 'OFF'}>
        <legend>{t('redaction.detectors')}</legend>
        {KINDS.map((k) => (
          <Checkbox
            key={k}
            label={t(`redaction.kind.${k}` as MessageKey)}
            checked={kinds.includes(k)}
            onChange={() => toggle(k)}
          />
        ))}
      </fieldset>
    </SettingsCard>
  );
}
