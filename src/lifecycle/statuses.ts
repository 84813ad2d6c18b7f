import type { CallStatus } from '../generated/prisma/client.ts';

export type { CallStatus };

/** Before the call row exists: the `from` of intake's first transition. */
export const NONE = 'none';
export type FromStatus = CallStatus | typeof NONE;

/**
 * Every status a call can be in, and the app's view it is listed under (docs/api/product-decisions.md "States").
 * A new status is one line here (the compiler then asks for its view), one in prisma's
 * `CallStatus` enum with its migration, and its arrows in TRANSITIONS and the diagram of docs/guides/processing.md.
 */
export const STATUSES = {
  queued: { view: 'in_progress' },
  transcribing: { view: 'in_progress' },
  analyzing: { view: 'in_progress' },
  analyzed: { view: 'analyzed' },
  transcribed: { view: 'analyzed' },
  failed: { view: 'failed' },
} as const satisfies Record<CallStatus, { view: string }>;

export type CallView = (typeof STATUSES)[CallStatus]['view'];

/** The statuses listed under each view of the app. */
export const CALL_VIEWS = Object.entries(STATUSES).reduce(
  (views, [status, { view }]) => {
    views[view].push(status as CallStatus);
    return views;
  },
  { in_progress: [], analyzed: [], failed: [] } as Record<CallView, CallStatus[]>,
);

export function viewOf(status: CallStatus): CallView {
  return STATUSES[status].view;
}

/**
 * The state diagram of docs/guides/processing.md as data; test/lifecycle/diagram.test.ts checks that
 * they agree. `transition()` refuses any other move, so a status changes only along these arrows.
 */
export const TRANSITIONS = {
  [NONE]: ['queued'], // accepted by intake or the app's upload
  queued: ['transcribing'], // a transcribe job started
  // template applies / none applies / verdict on the recording / waits for the operator's fix
  transcribing: ['analyzing', 'transcribed', 'failed', 'queued'],
  analyzing: ['analyzed', 'transcribed'], // scored / no template any more, or analysis gave up
  analyzed: ['analyzing'], // re-analysis requested
  transcribed: ['analyzing'], // re-analysis requested (e.g. a template now applies)
  failed: [],
} as const satisfies Record<FromStatus, readonly CallStatus[]>;

/** The statuses `to` can be reached from (a type: `Source<'analyzing'>` is 'transcribing' | 'analyzed' | 'transcribed'). */
export type Source<To extends CallStatus> = {
  [F in FromStatus]: To extends (typeof TRANSITIONS)[F][number] ? F : never;
}[FromStatus];

export function isAllowed(from: FromStatus, to: CallStatus): boolean {
  return (TRANSITIONS[from] as readonly CallStatus[]).includes(to);
}
