/**
 * Shells the pages' forms share: a dialog that is one form (error, fields, Cancel and submit); a
 * settings card's form; a secret shown once; an inline form's buttons.
 */
import type { FormEvent, ReactNode } from 'react';
import { useT } from '../i18n/index.tsx';
import { Alert, Button, Card, Dialog, SecretBox } from './ui.tsx';

/** A form's submit as `useFormMutation` (or `useSettingsForm`) gives it: the handler, the failure in words, running. */
export interface FormRun {
  submit: (e: FormEvent) => void;
  error: string | null;
  pending: boolean;
}

/** The body of a form dialog: the error (if any), the fields, then Cancel and the submit button. */
function DialogForm({
  onSubmit,
  onCancel,
  error,
  submitLabel,
  submitting,
  canSubmit,
  id,
  children,
}: {
  onSubmit: (e: FormEvent) => void;
  onCancel: () => void;
  error: string | null;
  submitLabel: ReactNode;
  submitting: boolean;
  canSubmit: boolean;
  id?: string;
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <form className="stack" onSubmit={onSubmit} id={id}>
      {error && <Alert tone="red">{error}</Alert>}
      {children}
      <div className="form-actions">
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" loading={submitting} disabled={!canSubmit}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/**
 * A dialog that is one form (adding or changing a thing): its title and lead, then the DialogForm
 * that `form` sends. Once the form has produced something to show (`done`: a secret shown once),
 * the dialog shows that instead.
 */
export function FormDialog({
  open = true,
  title,
  description,
  onClose,
  form,
  done,
  submitLabel,
  canSubmit,
  id,
  children,
}: {
  /** For a dialog that stays mounted while closed; one that is mounted only while open leaves it out. */
  open?: boolean;
  title: ReactNode;
  description?: ReactNode;
  onClose: () => void;
  form: FormRun;
  done?: ReactNode;
  submitLabel: ReactNode;
  canSubmit: boolean;
  id?: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description}>
      {done || (
        <DialogForm
          onSubmit={form.submit}
          onCancel={onClose}
          error={form.error}
          submitLabel={submitLabel}
          submitting={form.pending}
          canSubmit={canSubmit}
          id={id}
        >
          {children}
        </DialogForm>
      )}
    </Dialog>
  );
}

/** A secret (API key, invitation link) shown once after it was created, with what to do about it. */
export function OneTimeSecret({
  value,
  tone,
  title,
  children,
  doneLabel,
  onDone,
  doneTestId,
}: {
  value: string;
  tone: 'amber' | 'green';
  title: ReactNode;
  children: ReactNode;
  doneLabel: ReactNode;
  onDone: () => void;
  doneTestId?: string;
}) {
  return (
    <div className="stack">
      <Alert tone={tone} title={title}>
        {children}
      </Alert>
      <SecretBox value={value} />
      <div className="form-actions">
        <Button variant="primary" onClick={onDone} data-testid={doneTestId}>
          {doneLabel}
        </Button>
      </div>
    </div>
  );
}

/**
 * A settings card: its title and lead, then a form of the error (if any), the fields and one submit
 * button (Save unless `submitLabel` says otherwise), `width` wide at the most. `form` is a
 * `useSettingsForm` (Save waits for the saved values) or a `useFormMutation` with `canSave`.
 */
export function SettingsCard({
  title,
  description,
  form,
  canSave = form.ready,
  width = 420,
  testId,
  submitLabel,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  form: FormRun & { ready?: boolean };
  canSave?: boolean;
  width?: number;
  testId?: string;
  submitLabel?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <Card title={title} description={description}>
      <form className="stack" onSubmit={form.submit} style={{ maxWidth: width }} data-testid={testId}>
        {form.error && <Alert tone="red">{form.error}</Alert>}
        {children}
        <div>
          <Button type="submit" variant="primary" loading={form.pending} disabled={!canSave}>
            {submitLabel ?? t('common.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** An inline form's buttons (Override, Dispute, Answer a dispute): its own (`children`), then Cancel. */
export function InlineFormActions({ onCancel, children }: { onCancel: () => void; children: ReactNode }) {
  const { t } = useT();
  return (
    <div className="row">
      {children}
      <Button size="sm" variant="ghost" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
    </div>
  );
}
