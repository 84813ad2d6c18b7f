import { describe, expect, it } from 'vitest';
import { guardedLookup, isPrivateAddress, validateWebhookUrl } from '../../src/webhooks/address-guard.ts';

describe('isPrivateAddress', () => {
  it.each([
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '127.0.0.1',
    '0.0.0.0',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:c0a8:101::1',
    'not-an-ip',
    '::ffff:0:7f00:1',
    '64:ff9b:1::a9fe:a9fe',
  ])('refuses %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:93.184.216.34',
    '64:ff9b::5db8:d822',
  ])('allows %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe('validateWebhookUrl at save time', () => {
  const strict = { allowPrivate: false };

  it('accepts a public https address and normalizes it', async () => {
    await expect(validateWebhookUrl('  https://93.184.216.34/hooks?x=1 ', strict)).resolves.toBe(
      'https://93.184.216.34/hooks?x=1',
    );
  });

  it.each([
    'https://10.0.0.1/h',
    'https://172.16.0.1/h',
    'https://192.168.1.1/h',
    'https://127.0.0.1/h',
    'https://[::1]/h',
    'https://[fd00::1]/h',
    'https://[::ffff:127.0.0.1]/h',
    'https://169.254.169.254/latest/meta-data',
    'https://0.0.0.0/h',
    'https://2130706433/h',
    'https://localhost/h',
  ])('refuses %s as private_address', async (url) => {
    await expect(validateWebhookUrl(url, strict)).rejects.toMatchObject({ code: 'private_address' });
  });

  it.each([
    ['not a url', /not an absolute URL/],
    ['ftp://93.184.216.34/x', /must start with https/],
    ['http://93.184.216.34/x', /must start with https/],
    ['https://user:pw@93.184.216.34/x', /user name or password/],
  ])('refuses %s as invalid_webhook_url', async (url, message) => {
    await expect(validateWebhookUrl(url, strict)).rejects.toMatchObject({
      code: 'invalid_webhook_url',
      message: expect.stringMatching(message),
    });
  });

  it('allows private hosts and plain http when private addresses are allowed', async () => {
    await expect(validateWebhookUrl('http://127.0.0.1:8080/h', { allowPrivate: true })).resolves.toBe(
      'http://127.0.0.1:8080/h',
    );
  });
});

describe('guardedLookup at connection time', () => {
  const lookup = (host: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
      guardedLookup(host, { all }, (error, address) => resolve({ error, address })),
    );

  it('fails a name that resolves to a loopback address, whatever form is asked for', async () => {
    for (const all of [true, false]) {
      const { error } = await lookup('localhost', all);
      expect(error).toMatchObject({ code: 'private_address' });
    }
  });
});
