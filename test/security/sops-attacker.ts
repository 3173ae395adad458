import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateX25519Identity } from 'age-encryption';
import { beforeAll, expect } from 'vitest';
import { GroundworkError } from '../../src/core/errors.js';
import type { K8sObject } from '../../src/core/object.js';
import { toManifest } from '../../src/render/synth/manifest.js';
import type { SynthResult } from '../../src/render/synth/synthesize.js';
import { parseAgeIdentities, type AgeIdentities } from '../../src/secrets/age-identities.js';
import { decryptSopsSecrets } from '../../src/secrets/decrypt-secrets.js';
import { sealSecretFile, sealSops } from '../../src/secrets/seal-sops.js';
import { sealedText } from '../../src/secrets/sealed-sops.js';
import { SOPS_ANNOTATIONS } from '../../src/secrets/sops-annotations.js';
import { toolPath } from '../harness/tools.js';

const run = promisify(execFile);

/** The real sops v3.13.3, an age key and a scratch directory: what an author and an attacker use. */
export interface SopsBench {
  /** Encrypts `text` as the file `name` with the real sops for our recipient. */
  encrypt(name: string, text: string, flags?: string[]): Promise<string>;
  /** Decrypts `text` with the real sops and our key: its stdout, or it rejects. */
  decrypt(name: string, text: string): Promise<string>;
  identities(): AgeIdentities;
}

/** Sets up the bench in `beforeAll` (the sops binary comes from the tool cache, built if missing). */
export function useSopsBench(): SopsBench {
  let sops = '';
  let dir = '';
  let keyFile = '';
  let ids: AgeIdentities;
  beforeAll(async () => {
    sops = await toolPath('sops');
    dir = mkdtempSync(join(tmpdir(), 'gw-sops-attack-'));
    const identity = await generateX25519Identity();
    keyFile = join(dir, 'key.txt');
    writeFileSync(keyFile, `${identity}\n`);
    ids = await parseAgeIdentities(identity);
  }, 600_000);
  const sopsRun = async (args: string[]) =>
    (
      await run(sops, args, {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: dir, SOPS_AGE_KEY_FILE: keyFile },
        maxBuffer: 16 * 1024 * 1024,
      })
    ).stdout;
  return {
    encrypt: async (name, text, flags = []) => {
      writeFileSync(join(dir, name), text);
      return sopsRun(['--encrypt', '--age', ids.recipients[0]!, ...flags, name]);
    },
    decrypt: async (name, text) => {
      writeFileSync(join(dir, name), text);
      return sopsRun(['--decrypt', name]);
    },
    identities: () => ids,
  };
}

/** Puts `extra` (YAML lines, two-space indented under a top-level key) just before the `sops:` key. */
export function beforeSops(text: string, extra: string): string {
  const at = text.indexOf('\nsops:');
  return `${text.slice(0, at + 1)}${extra}${text.slice(at + 1)}`;
}

/** The GroundworkError `fn` throws (or `promise` rejects with). */
export async function refusal(fn: () => unknown): Promise<GroundworkError> {
  const err = await Promise.resolve()
    .then(fn)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(GroundworkError);
  return err as GroundworkError;
}

/**
 * Groundwork's two answers to a file: the render side's (`sealSecretFile`, what `SopsSecret` runs
 * in the synth child) and the trusted side's, given the sealed form a compromised renderer would
 * send without checking anything (`sealSops` alone), with the right key at hand.
 */
export async function bothSides(
  text: string,
  file: string,
  ids: AgeIdentities,
): Promise<{ render: GroundworkError; trusted: GroundworkError }> {
  const render = await refusal(() => sealSecretFile(text, file));
  const trusted = await refusal(async () => {
    const sealed = sealedText(sealSops(text, file).sealed);
    await decryptSopsSecrets(resultWith(sealedSecret(file, sealed)), async () => ids);
  });
  return { render, trusted };
}

/** A value-less Secret carrying `sealed` in its annotation, as synth emits a SopsSecret. */
export function sealedSecret(file: string, sealed: string): K8sObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 'app',
      namespace: 'ns',
      annotations: { [SOPS_ANNOTATIONS.sopsFile]: file, [SOPS_ANNOTATIONS.sopsCiphertext]: sealed },
    },
    type: 'Opaque',
  };
}

/** A synth result of one object. */
export function resultWith(object: K8sObject): SynthResult {
  return {
    platform: 'p',
    overlay: 'dev',
    manifests: [toManifest(object, 'platform/app')],
    hash: 'h',
    warnings: [],
  };
}
