import type { ServerResponse } from 'node:http';
import type { AppContext } from '../src/context.ts';
import type { AuthSession } from '../src/auth/session.ts';
import type { CallUpdatesHub } from '../src/lifecycle/updates.ts';

/** What every resolver gets; built per request by src/graphql/server.ts. */
export interface GraphQLContext {
  app: AppContext;
  request: Request;
  /** The node response, so sign-in/out can add Set-Cookie before yoga writes the head. */
  res: ServerResponse | null;
  ip: string;
  requestId: string;
  session: AuthSession | null;
  callUpdates: CallUpdatesHub;
  setCookie(value: string): void;
}

/** The context of a field guarded by an auth scope: a session is guaranteed. */
export type SignedInContext = GraphQLContext & { session: AuthSession };
