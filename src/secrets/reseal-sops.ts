import semver from 'semver';
import type { Document } from 'yaml';
import { sealEnc } from './enc-value.js';
import { SOPS_FORMAT_VERSION, sopsTime } from './encrypt-sops.js';
import type { OpenedSopsFile } from './open-sops-file.js';
import { emitDocument } from './sops-emit.js';
import { sealTree } from './seal-tree.js';

/**
 * The edited plaintext `edited` encrypted again as `sops edit` does (`cmd/sops/edit.go`,
 * `common.EncryptTree`): with the file's own data key, so its recipients and their age stanzas,
 * its rules and any other key sources in its metadata stay exactly as they were; an unchanged
 * value at an unchanged key path keeps its ciphertext (its IV is used again, `IvStash`), a new or
 * changed one gets a fresh IV; `lastmodified` becomes `now`, the MAC is computed anew and sealed
 * with it, and `version` is raised to the version whose format this writes when older. Encrypts
 * `edited` in place and returns the file's new text; writes nothing.
 */
export function resealSops(opened: OpenedSopsFile, edited: Document, now: Date = new Date()): string {
  const macOnlyEncrypted = opened.metadata.mac_only_encrypted === true;
  const mac = sealTree(edited.contents, {
    file: opened.file,
    key: opened.key,
    rules: opened.rules,
    macOnlyEncrypted,
    ivs: opened.ivs,
  });
  const lastmodified = sopsTime(now);
  const metadata = opened.metadataNode.clone();
  metadata.set('lastmodified', lastmodified);
  metadata.set('mac', sealEnc(Buffer.from(mac), 'str', opened.key, lastmodified));
  const version = semver.coerce(opened.metadata.version ?? '0.0.0');
  if (!version || semver.gt(SOPS_FORMAT_VERSION, version)) metadata.set('version', SOPS_FORMAT_VERSION);
  edited.set('sops', metadata);
  return emitDocument(edited, opened.format);
}
