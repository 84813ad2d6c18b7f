import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Alert, Button, Card, Checkbox, SelectField, useToast } from '../components/ui.tsx';
import { type MessageKey, useT } from '../i18n/index.tsx';
import { outcome } from '../lib/errors.ts';
import { graphql } from '../lib/graphql.ts';
import { useFormMutation } from '../lib/mutations.ts';

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
  const toast = useToast();
  const [{ data }] = useQuery({ query: RedactionQuery });
  const [mode, setMode] = useState<Mode>('OFF');
  const [kinds, setKinds] = useState<Set<Kind>>(new Set(KINDS));
  useEffect(() => {
    if (!data) return;
    setMode(data.account.redaction.mode);
    setKinds(new Set(data.account.redaction.kinds));
  }, [data]);
  const [{ fetching }, save] = useMutation(SetRedaction);
  const { submit, error } = useFormMutation(
    async () => outcome(await save({ mode, kinds: KINDS.filter((k) => kinds.has(k)) }), 'setRedaction'),
    () => toast(t('redaction.saved')),
  );
  const toggle = (k: Kind) =>
    setKinds((old) => {
      const next = new Set(old);
      if (next.has(k)) next.delete(k);
      else next.add(k);
      return next;
    });
  return (
    <Card title={t('redaction.title')} description={t('redaction.lead')}>
      <form className="stack" onSubmit={submit} style={{ maxWidth: 560 }}>
        {error && <Alert tone="red">{error}</Alert>}
        <SelectField
          label={t('redaction.mode')}
          hint={t(`redaction.modeHint.${mode}` as MessageKey)}
          value={mode}
          onChange={(e) => setMode(e.target.value as Mode)}
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
              checked={kinds.has(k)}
              onChange={() => toggle(k)}
            />
          ))}
        </fieldset>
        <div>
          <Button type="submit" variant="primary" loading={fetching} disabled={!data}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
