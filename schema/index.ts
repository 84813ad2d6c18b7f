// Importing a type file registers its types and fields on the builder; the order is irrelevant.
import { builder } from './builder.ts';
import './types/scalars.ts';
import './types/errors.ts';
import './types/account.ts';
import './types/user.ts';
import './types/session.ts';
import './types/agent.ts';
import './types/campaign.ts';
import './types/template.ts';
import './types/call.ts';
import './types/api-key.ts';
import './types/webhook.ts';
import './types/usage.ts';
import './types/report.ts';
import './types/subscription.ts';
import './types/service-status.ts';
import './types/vocabulary.ts';
import './types/data-protection.ts';
import './types/audit.ts';
import './types/bulk-reanalysis.ts';
import './types/review-queue.ts';
import './types/redaction.ts';
import './types/diarization.ts';
import './types/review.ts';
import './types/coaching.ts';
import './types/sentiment.ts';

export const schema = builder.toSchema({ sortSchema: true });
