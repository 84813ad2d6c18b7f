import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ui.tsx';

/** An action that asks first: what the dialog says, its button, and what confirming does. */
export interface ConfirmAction {
  title: ReactNode;
  body: ReactNode;
  confirmLabel: ReactNode;
  danger?: boolean;
  /** Runs after the dialog has closed (its outcome shows as a toast or on the page). */
  run: () => Promise<void> | void;
}

/**
 * One confirmation dialog for the several actions of a page or row that ask first (deactivate an
 * agent, remove a user, rotate a secret…): `ask(action)` opens it, Cancel or Escape closes it, and
 * confirming closes it and runs the action.
 */
export function useConfirm(): { ask: (action: ConfirmAction) => void; dialog: ReactNode } {
  const [action, setAction] = useState<ConfirmAction | null>(null);
  const dialog = (
    <ConfirmDialog
      open={action !== null}
      onClose={() => setAction(null)}
      title={action?.title}
      confirmLabel={action?.confirmLabel}
      danger={action?.danger}
      onConfirm={() => {
        if (!action) return;
        setAction(null);
        void action.run();
      }}
    >
      <p>{action?.body}</p>
    </ConfirmDialog>
  );
  return { ask: setAction, dialog };
}
