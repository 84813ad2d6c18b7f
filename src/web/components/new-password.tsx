/** Choosing a new password (accepting an invitation, changing one's own): the rule, and the same twice. */
import { type FormEvent, useState } from 'react';
import { useT } from '../i18n/index.tsx';
import { PasswordField } from './ui.tsx';

export const MIN_PASSWORD = 10;

/** The new password and its confirmation as the user types them, and what is wrong with them yet. */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const mismatch = confirm.length > 0 && confirm !== password;
  const short = password.length > 0 && password.length < MIN_PASSWORD;
  return {
    password,
    confirm,
    setPassword,
    setConfirm,
    mismatch,
    short,
    /** Long enough and typed the same twice: the form may be sent. */
    complete: password.length >= MIN_PASSWORD && password === confirm,
    /** The form's submit: while either field is wrong it only keeps the page from reloading. */
    guard:
      (send: (e: FormEvent) => unknown) =>
      (e: FormEvent): void => {
        if (mismatch || short) e.preventDefault();
        else void send(e);
      },
    clear: () => {
      setPassword('');
      setConfirm('');
    },
  };
}

/** The two fields, each with its error as soon as it is wrong. */
export function NewPasswordFields({
  pw,
  label,
  confirmLabel,
}: {
  pw: ReturnType<typeof useNewPassword>;
  label: string;
  confirmLabel: string;
}) {
  const { t } = useT();
  const rule = t('password.rule', { n: MIN_PASSWORD });
  const short = pw.short ? t('password.tooShort', { n: MIN_PASSWORD }) : undefined;
  const mismatch = pw.mismatch ? t('password.mismatch') : undefined;
  return (
    <>
      <PasswordField label={label} isNew value={pw.password} onValue={pw.setPassword} hint={rule} error={short} />
      <PasswordField label={confirmLabel} isNew value={pw.confirm} onValue={pw.setConfirm} error={mismatch} />
    </>
  );
}
