import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import type { AppContext } from '../../src/context.ts';
import type { Db } from '../../src/db/client.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import type { UserRole } from '../../src/generated/prisma/client.ts';
import { graphqlRoutes } from '../../src/graphql/routes.ts';
import { createHttpServer, type Route } from '../../src/http/server.ts';
import type { TestDb } from '../support/db.ts';
import { test as harness, testApp } from '../support/harness.ts';
import { seedAccount as seedShared } from '../support/service.ts';
import { APP_SECRET } from './fixtures.ts';

export interface Harness {
  app: AppContext;
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

/** The GraphQL routes alone on a loopback port, over the harness's app. */
export async function startGraphql(
  t: TestDb,
  opts: { db?: Db; env?: Record<string, string>; routes?: (app: AppContext) => Route[] } = {},
): Promise<Harness> {
  const base = testApp(t, {
    APP_SECRET,
    PUBLIC_URL: 'https://escucha.example',
    WEBHOOK_ALLOW_PRIVATE: 'false',
    ...opts.env,
  });
  const app: AppContext = { config: base.config, log: base.log, db: opts.db ?? t.db, storage: base.storage };
  // `routes`: HTTP routes a test reads beside GraphQL (a CSV export), on the same sessions.
  const server = createHttpServer(app, [...(opts.routes?.(app) ?? []), ...graphqlRoutes(app)]);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    app,
    server,
    url: `http://127.0.0.1:${port}/graphql`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      base.dispose();
    },
  };
}

export interface GqlResult<T = any> {
  status: number;
  headers: Headers;
  body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
}

/** A browser: keeps the session cookie and the csrf token like the web app does. */
export class Browser {
  cookie: string | null = null;
  csrf: string | null = null;

  readonly url: string;
  constructor(url: string) {
    this.url = url;
  }

  async gql<T = any>(
    query: string,
    variables: Record<string, unknown> = {},
    opts: { csrf?: string | null; headers?: Record<string, string> } = {},
  ): Promise<GqlResult<T>> {
    const csrf = opts.csrf === undefined ? (this.csrf ?? 'x') : opts.csrf;
    const res = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(csrf !== null && { 'x-escucha-csrf': csrf }),
        ...(this.cookie && { cookie: this.cookie }),
        ...opts.headers,
      },
      body: JSON.stringify({ query, variables }),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, value] = pair!.split('=');
      if (name === 'escucha_session') this.cookie = value ? `escucha_session=${value}` : null;
    }
    return { status: res.status, headers: res.headers, body: (await res.json()) as GqlResult<T>['body'] };
  }

  async signIn(email: string, password: string): Promise<void> {
    const r = await this.gql(
      `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { __typename ... on Session { csrfToken } ... on Error { code message } } }`,
      { e: email, p: password },
    );
    const result = r.body.data?.signIn;
    if (result?.__typename !== 'Session') throw new Error(`sign-in failed: ${JSON.stringify(r.body)}`);
    this.csrf = result.csrfToken;
  }
}

export const PASSWORD = 'correct horse battery';

/** An account (the harness's seed, no agents or key) with one signed-in user per role. */
export async function seedAccount(h: Harness, name: string, opts: { seats?: number } = {}) {
  const { account, owner } = await seedShared(h, {
    name,
    seats: opts.seats ?? 10,
    minutes: null,
    timeZone: 'UTC',
    agents: [],
    apiKey: false,
  });
  const passwordHash = await hashPassword(PASSWORD);
  await h.app.db.user.update({ where: { email: owner.email }, data: { passwordHash } });
  const browsers = {} as Record<UserRole, Browser>;
  const users = {} as Record<UserRole, { id: string; email: string }>;
  for (const role of ['owner', 'admin', 'analyst', 'viewer'] as const) {
    const email = role === 'owner' ? owner.email : `${role}-${account.id.slice(0, 8)}@example.com`;
    const user =
      role === 'owner'
        ? await h.app.db.user.findUniqueOrThrow({ where: { email } })
        : await h.app.db.user.create({
            data: { accountId: account.id, email, name: `${name} ${role}`, role, passwordHash },
          });
    users[role] = { id: user.id, email };
    browsers[role] = new Browser(h.url);
    await browsers[role].signIn(email, PASSWORD);
  }
  return { account, users, as: browsers };
}

export type SeededAccount = Awaited<ReturnType<typeof seedAccount>>;

/**
 * One more user of `role` in the account (an agent user when `agentId` is given), signed in through
 * the GraphQL endpoint at `url` (the `gql` fixture's, or a service's `/graphql`).
 */
export async function signedInUser(
  db: Db,
  url: string,
  accountId: string,
  opts: { role: UserRole; name?: string; agentId?: string | null; email?: string },
): Promise<Browser> {
  const email = opts.email ?? `${opts.role}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await db.user.create({
    data: {
      accountId,
      email,
      name: opts.name ?? `The ${opts.role}`,
      role: opts.role,
      agentId: opts.agentId ?? null,
      passwordHash: await hashPassword(PASSWORD),
    },
  });
  const b = new Browser(url);
  await b.signIn(email, PASSWORD);
  return b;
}

/**
 * The harness's `test` with the GraphQL routes on the file's database (`gql`) and an account "Acme"
 * with one signed-in browser per role (`acme`), both made once per file and closed after it.
 */
export const test = harness.extend<{ gql: Harness; acme: SeededAccount }>({
  gql: [
    async ({ db }, use) => {
      const h = await startGraphql(db);
      await use(h);
      await h.close();
    },
    { scope: 'file' },
  ],
  acme: [async ({ gql }, use) => use(await seedAccount(gql, 'Acme')), { scope: 'file' }],
});

/** `test` whose GraphQL routes run with these environment variables (as the operator would set them). */
export const testWithGraphql = (env: Record<string, string>) =>
  test.extend<{ gql: Harness }>({
    gql: [
      async ({ db }, use) => {
        const h = await startGraphql(db, { env });
        await use(h);
        await h.close();
      },
      { scope: 'file' },
    ],
  });
