import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { constructEntries, constructsReference } from '../../scripts/docs/constructs-reference.js';

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [] },
  }),
  'package.json': JSON.stringify({ type: 'module' }),
  'construct.ts': 'export class Construct { constructor(scope: Construct | undefined, id: string) {} }\n',
  'widget.ts': `import { Construct } from './construct.js';
export class Base extends Construct {}
interface BaseProps {
  /** Labels | to add. */
  readonly labels?: Record<string, string>;
}
export interface WidgetProps extends BaseProps {
  /** Its name. */
  readonly name: string;
  /**
   * How big,
   * in units. @default 3
   */
  readonly size?: number | 'auto';
}
/**
 * A widget: it
 * does things.
 *
 * More detail the reference leaves out.
 */
export class Widget extends Base {
  constructor(scope: Construct, id: string, props: WidgetProps) {
    super(scope, id);
  }
}
/** Not a construct. */
export class Helper {}
`,
  'index.ts':
    "export { Widget, type WidgetProps, Helper } from './widget.js';\nexport { Construct } from './construct.js';\n",
};

describe('the constructs reference', () => {
  const root = mkdtempSync(join(tmpdir(), 'gw-constructs-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(root, name), text);
  let cached: ReturnType<typeof constructEntries> | undefined;
  const entries = () => (cached ??= constructEntries(root, 'index.ts'));

  it('lists each exported construct subclass with its summary and props, in export order', () => {
    expect(entries()).toEqual([
      {
        name: 'Widget',
        source: 'widget.ts',
        summary: 'A widget: it does things.',
        propsType: 'WidgetProps',
        props: [
          { name: 'name', type: 'string', required: true, description: 'Its name.' },
          {
            name: 'size',
            type: "number | 'auto'",
            required: false,
            default: '3',
            description: 'How big, in units.',
          },
          {
            name: 'labels',
            type: 'Record<string, string>',
            required: false,
            description: 'Labels | to add.',
          },
        ],
      },
    ]);
  });

  it('writes a table row per prop, pipes escaped', () => {
    const page = constructsReference(entries(), 'index.ts');
    expect(page).toContain('## Widget\n\nA widget: it does things.\n');
    expect(page).toContain("| `size` | `number \\| 'auto'` | no | 3 | How big, in units. |");
    expect(page).toContain('| `labels` | `Record<string, string>` | no |  | Labels \\| to add. |');
    expect(page).not.toContain('Helper');
  });

  it('the committed page documents the public constructs', () => {
    const repo = fileURLToPath(new URL('../..', import.meta.url));
    const page = readFileSync(join(repo, 'docs/constructs-reference.md'), 'utf8');
    for (const name of [
      'Platform',
      'PlatformOperator',
      'MachineConfig',
      'MachineConfigPool',
      'HelmChart',
      'SopsSecret',
    ])
      expect(page).toContain(`\n## ${name}\n`);
    expect(page).toContain('| `chart` | `string` | yes |');
    expect(page).not.toContain('## ApiObject');
  });
});
