// `node --import <this file>`: TypeScript via tsx, then the fallback resolver for bare imports.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
register('./resolve-hook.mjs', import.meta.url, {
  data: { parentURL: new URL('../../../package.json', import.meta.url).href },
});
