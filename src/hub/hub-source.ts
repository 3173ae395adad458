import { GroundworkError } from '../core/errors.js';

/** Where the agent's `--hub` bootstrap kubeconfig is: a file, or a Secret of its own namespace. */
export type HubSource =
  { readonly kind: 'file'; readonly path: string } | { readonly kind: 'secret'; readonly name: string };

/** A Secret's name: a DNS subdomain (RFC 1123), at most 253 characters. */
const SECRET_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Reads the `--hub` value: `secret/<name>` (key `kubeconfig` of that Secret in the agent's
 * namespace) or a file path. A value starting with `secret/` is always a Secret, so a bad name
 * (`secret/../x`, `secret/Bad_Name`) is refused, never read as a file. `HubBootstrapInvalid`,
 * the value not quoted beyond its kind. Pure.
 */
export function hubSourceOf(value: string): HubSource {
  const fail = (message: string): never => {
    throw new GroundworkError({
      code: 'HubBootstrapInvalid',
      subject: '--hub',
      message,
      fix: 'pass the bootstrap kubeconfig file `groundwork hub token create` wrote, or secret/<name> of a Secret in the agent namespace holding it under the key kubeconfig',
    });
  };
  if (value.startsWith('secret/')) {
    const name = value.slice('secret/'.length);
    if (name.length === 0 || name.length > 253 || !SECRET_NAME.test(name))
      fail('secret/<name> needs a Secret name: lower-case letters, digits, - and ., at most 253 characters');
    return { kind: 'secret', name };
  }
  if (value.trim() === '' || value.includes('\0') || value.length > 4096)
    fail('is neither a file path nor secret/<name>');
  return { kind: 'file', path: value };
}
