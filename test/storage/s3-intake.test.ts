// With STORAGE_URL set, intake stores the recording in the bucket and the player reads it back in
// ranges; a call that does not commit leaves nothing in the bucket.
import type { TestDb } from '../support/db.ts';
import { expect, test } from '../support/harness.ts';
import { postCall } from '../support/intake.ts';
import type { TestS3 } from '../support/s3.ts';
import { seedAccount, type TestService } from '../support/service.ts';
import { signedIn, wavBytes } from '../http/support.ts';

let t: TestDb;
let s3: TestS3;
let svc: TestService;
test.beforeAll(async ({ db, s3: store, serviceWith }) => {
  t = db;
  s3 = store;
  svc = await serviceWith({ env: s3.env });
});

const post = (key: string, bytes: Buffer<ArrayBuffer>, fields: Record<string, string> = {}) =>
  postCall(svc.url, {
    key,
    fields: { agent_code: 'AG-07', ...fields },
    file: { blob: new Blob([bytes], { type: 'audio/wav' }), name: 'llamada.wav' },
  });

test('stores an accepted call in the bucket (not on local disk) and serves byte ranges of it', async () => {
  const a = await seedAccount(svc);
  const bytes = wavBytes(200_000);
  const res = await post(a.key, bytes, { external_id: 'ext-1' });
  expect(res.status).toBe(201);
  const [row] = await t.sql('SELECT storage_key FROM calls WHERE id = $1', [res.body.id]);
  expect(await s3.keys()).toEqual([row.storage_key]);
  expect(svc.storedFiles()).toEqual([]);

  const again = await post(a.key, bytes, { external_id: 'ext-1' });
  expect(again.body).toMatchObject({ id: res.body.id, status: 'exists' });
  expect(await s3.keys()).toEqual([row.storage_key]);

  const owner = await signedIn(svc.app.db, a.account.id, 'owner');
  const part = await fetch(`${svc.url}/api/calls/${res.body.id}/recording`, {
    headers: { ...owner.headers(), range: 'bytes=1000-1999' },
  });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
  expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(1000, 2000));
  const whole = await fetch(`${svc.url}/api/calls/${res.body.id}/recording`, { headers: owner.headers() });
  expect(whole.status).toBe(200);
  expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
});

test('removes the uploaded object when the call fails to commit, so no recording is left without a call', async () => {
  const a = await seedAccount(svc);
  // A deferred check fails at COMMIT, after the recording went to the bucket inside the transaction.
  await t.sql(`
    CREATE FUNCTION refuse_call() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'refused at commit'; END $$`);
  await t.sql(`
    CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON calls DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.customer_name = 'refuse me') EXECUTE FUNCTION refuse_call()`);
  const before = await s3.keys();
  const res = await post(a.key, wavBytes(50_000), { customer_name: 'refuse me' });
  expect(res.status).toBe(500);
  expect(await t.sql('SELECT id FROM calls WHERE account_id = $1', [a.account.id])).toEqual([]);
  expect(await s3.keys()).toEqual(before);
  expect(svc.storedFiles()).toEqual([]);
});
