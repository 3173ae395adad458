import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  bootstrapKubeconfig,
  memberKubeconfig,
  parseBootstrapKubeconfig,
  REGISTRATION_EXTENSION,
} from '../../src/hub/bootstrap-kubeconfig.js';
import { newRegistrationToken } from '../../src/hub/registration-token.js';
import { newRegistrationKey, openCredentials, sealCredentials } from '../../src/hub/sealed-credentials.js';

const bootstrap = {
  server: 'https://hub.example:6443',
  caData: Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64'),
  bearer: 'registration-sa-token',
  member: 'eu-1',
  token: newRegistrationToken().token,
  expiresAt: '2026-11-28T04:00:00Z',
};

describe('bootstrap kubeconfigs', () => {
  it('round-trips through the text it prints', () => {
    const text = bootstrapKubeconfig(bootstrap);
    expect(parseBootstrapKubeconfig(text, 'bootstrap.yaml')).toEqual(bootstrap);
    const doc = parse(text) as { extensions: { name: string }[]; 'current-context': string };
    expect(doc.extensions[0]!.name).toBe(REGISTRATION_EXTENSION);
    expect(doc['current-context']).toBe('hub');
  });

  it('makes a member kubeconfig with the member token and no extension', () => {
    const doc = parse(memberKubeconfig(bootstrap, 'eu-1', 'member-token')) as {
      users: { name: string; user: { token: string } }[];
      extensions?: unknown;
    };
    expect(doc.users).toEqual([{ name: 'member-eu-1', user: { token: 'member-token' } }]);
    expect(doc.extensions).toBeUndefined();
  });

  it('refuses a kubeconfig without the registration, naming what is missing', () => {
    const text = bootstrapKubeconfig(bootstrap).replace(REGISTRATION_EXTENSION, 'other.example/ext');
    expect(() => parseBootstrapKubeconfig(text, 'bootstrap.yaml')).toThrow(
      expect.objectContaining({ code: 'HubBootstrapInvalid', subject: 'bootstrap.yaml' }),
    );
  });
});

describe('sealed credentials', () => {
  const credentials = {
    member: 'eu-1',
    namespace: 'member-eu-1',
    token: 'eyJhbGciOi.member.token',
    expiresAt: '2026-11-29T03:00:00Z',
  };

  it('open with the key they were sealed to', async () => {
    const key = await newRegistrationKey();
    const sealed = await sealCredentials(credentials, key.recipient);
    expect(sealed).not.toContain(credentials.token);
    expect(await openCredentials(sealed, key.identity)).toEqual(credentials);
  });

  it('do not open with another key, and the error never quotes them', async () => {
    const [key, other] = await Promise.all([newRegistrationKey(), newRegistrationKey()]);
    const sealed = await sealCredentials(credentials, key.recipient);
    const err = await openCredentials(sealed, other.identity).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'HubRegistrationFailed' });
    expect(String((err as Error).message)).not.toContain(credentials.token);
  });
});
