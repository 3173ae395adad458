// The one gate between a name and an apiserver request path.
import { GroundworkError } from '../core/errors.js';
import { nameProblem, type NameRule } from '../core/object-name.js';

/**
 * `value` as one path segment of a request (URI-encoded), when it is a valid name by `rule` (a
 * namespace: `dns-label`; an object's name: at least `path-segment`, which every kind's rule
 * implies). Throws `InvalidObjectName` otherwise: `.` or `..` would be resolved by the URL
 * parser (`/namespaces/a/configmaps/..` is the Namespace `a`), a `/` or `%` would name another
 * resource. Pure.
 */
export function pathSegment(value: string, what: 'namespace' | 'name', rule: NameRule): string {
  const problem = nameProblem(value, rule);
  if (problem)
    throw new GroundworkError({
      code: 'InvalidObjectName',
      subject: `${what} ${JSON.stringify(value.slice(0, 80))}`,
      message: `${problem}; no request was sent`,
      fix: 'fix the name where it was set: it must be a valid Kubernetes name',
    });
  try {
    return encodeURIComponent(value); // throws URIError on a lone surrogate
  } catch {
    throw new GroundworkError({
      code: 'InvalidObjectName',
      subject: `${what} ${JSON.stringify(value.slice(0, 80))}`,
      message: 'holds a lone UTF-16 surrogate, which no URL can carry; no request was sent',
      fix: 'fix the name where it was set: it must be a valid Kubernetes name',
    });
  }
}

/**
 * Throws `InvalidObjectName` when a request path holds a dot segment (`.` or `..`, percent-encoded
 * too), an empty one before its last, a backslash (a separator to the URL parser) or a control
 * character (tabs and newlines are stripped by it): the URL parser would resolve or rewrite it and
 * send the request to another resource than the one built. Every request passes here (`KubeClient.send`), so a path built
 * by hand from an unchecked name cannot reach another object. Pure.
 */
export function checkRequestPath(path: string): void {
  const pathPart = path.split('?')[0]!;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  const rewritten = /[\\\x00-\x1f\x7f]/.test(pathPart);
  const segments = pathPart.split('/').slice(1);
  for (const [i, s] of segments.entries()) {
    const decoded = s.replace(/%2e/gi, '.');
    if (rewritten || (s === '' && i < segments.length - 1) || decoded === '.' || decoded === '..')
      throw new GroundworkError({
        code: 'InvalidObjectName',
        subject: `request path ${JSON.stringify(path.slice(0, 120))}`,
        message:
          'holds an empty, "." or ".." segment, a "\\" or a control character, which would name another resource; no request was sent',
        fix: 'a name or namespace in it is not a valid Kubernetes name: fix it where it was set',
      });
  }
}
