/**
 * A platform module that runs `top` when it is imported (after `imports`, if any, each on its own
 * line: `top` starts on the line after them) and whose build emits one ConfigMap `default/real`,
 * then runs `build`. For sandbox tests: what platform code does at import or build time.
 *
 * @example
 * platformDir(configMapPlatform('process.kill(process.ppid);')); // the kill is platform/main.ts:2
 */
export function configMapPlatform(top: string, opts: { imports?: string; build?: string } = {}): string {
  return `${opts.imports ? `${opts.imports}\n` : ''}import { ApiObject, Platform, definePlatform, z } from 'groundwork-gitops';
${top}
export default definePlatform({
  values: z.object({}),
  build(scope) {
    const platform = new Platform(scope, 'platform', { openshiftVersion: '4.16' });
    new ApiObject(platform, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'real', namespace: 'default' }, data: { a: 'b' } });
    ${opts.build ?? ''}
  },
});
`;
}
