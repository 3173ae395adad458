// Node module resolution hook for platform code that lives outside Groundwork's install
// (a git checkout in a temp dir, a user's repository without node_modules): bare specifiers
// that cannot be resolved from the importing file ('groundwork-gitops', 'cdk8s', 'constructs', 'zod', ...)
// are resolved from Groundwork's own package instead, so a platform repository needs no
// dependencies of its own and always gets the agent's versions.
let fallbackParent;

export function initialize(data) {
  fallbackParent = data.parentURL;
}

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const bare = !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.includes(':');
    if (!bare || !fallbackParent || (err && err.code !== 'ERR_MODULE_NOT_FOUND')) throw err;
    return nextResolve(specifier, { ...context, parentURL: fallbackParent });
  }
}
