import type { JobHelpers } from 'graphile-worker';

/**
 * What a use-case run by a job knows of its run: the attempt's number and whether it is the last one
 * (a failure then is final, so the use-case leaves the call in a state a person can act on).
 */
export interface JobAttempt {
  number: number;
  last: boolean;
}

/** The attempt of a graphile-worker job, for the use-case its adapter calls. */
export function attemptOf(helpers: Pick<JobHelpers, 'job'>): JobAttempt {
  return { number: helpers.job.attempts, last: helpers.job.attempts >= helpers.job.max_attempts };
}
