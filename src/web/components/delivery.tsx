/**
 * A webhook delivery's status as people read it, shared by the call page and Integrations: a
 * delivery that has not been tried yet is "Pending" with "Not attempted yet", never "Retrying ·
 * 0 attempts".
 */
import { type MessageKey, useT } from '../i18n/index.tsx';
import { Badge } from './ui.tsx';

export function deliveryTone(status: string): 'green' | 'red' | 'amber' {
  return status === 'SUCCEEDED' ? 'green' : status === 'FAILED' ? 'red' : 'amber';
}

export function DeliveryBadge({ status, attemptCount }: { status: string; attemptCount: number }) {
  const { t } = useT();
  return (
    <Badge tone={deliveryTone(status)} dot>
      {status === 'PENDING' && attemptCount === 0 ? t('delivery.PENDING_first') : t(`delivery.${status}` as MessageKey)}
    </Badge>
  );
}

/** "3 attempts", "1 attempt", or "Not attempted yet" before the first. */
export function useAttemptsText() {
  const { t } = useT();
  return (n: number): string => (n === 0 ? t('webhook.noAttempt') : t('webhook.attempts', { n }));
}
