import { join, relative } from 'node:path';
import ts from 'typescript';
import { cell } from './cli-reference.js';

/** One field of a construct's props interface, as its declaration and JSDoc state it. */
export interface PropRow {
  name: string;
  /** The type as written in the declaration (whitespace collapsed), else as the checker prints it. */
  type: string;
  required: boolean;
  /** The `@default` tag's text; absent when the field has none. */
  default?: string;
  description: string;
}

/** One construct class exported by the entry module. */
export interface ConstructEntry {
  name: string;
  /** The file that declares the class, relative to the root. */
  source: string;
  /** The first paragraph of the class's doc comment. */
  summary: string;
  /** The name of the constructor's props type; absent when the constructor takes none. */
  propsType?: string;
  props: PropRow[];
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** True when `type` is a class whose chain of base classes reaches one named `Construct`. */
function isConstructClass(checker: ts.TypeChecker, type: ts.Type): boolean {
  for (const base of type.isClassOrInterface() ? checker.getBaseTypes(type) : []) {
    if (base.symbol?.name === 'Construct' || isConstructClass(checker, base)) return true;
  }
  return false;
}

function propRow(checker: ts.TypeChecker, property: ts.Symbol): PropRow {
  const declaration = property.valueDeclaration ?? property.declarations?.[0];
  const typeNode =
    declaration && (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration))
      ? declaration.type
      : undefined;
  const type = typeNode
    ? oneLine(typeNode.getText())
    : checker.typeToString(checker.getTypeOfSymbol(property));
  const tag = declaration
    ? ts.getJSDocTags(declaration).find((t) => t.tagName.text === 'default')
    : undefined;
  const row: PropRow = {
    name: property.name,
    type,
    required: (property.flags & ts.SymbolFlags.Optional) === 0,
    description: oneLine(ts.displayPartsToString(property.getDocumentationComment(checker))),
  };
  if (tag) row.default = oneLine(ts.getTextOfJSDocComment(tag.comment) ?? '');
  return row;
}

/** The constructor parameter named `props`, else the third (`scope, id, props`). */
function propsParameter(checker: ts.TypeChecker, classType: ts.Type): ts.Symbol | undefined {
  const ctorType = checker.getTypeOfSymbol(classType.symbol);
  const signature = ctorType.getConstructSignatures()[0];
  if (!signature) return undefined;
  return signature.parameters.find((p) => p.name === 'props') ?? signature.parameters[2];
}

/**
 * Every construct class `entry` exports (its own classes, not those it re-exports from a
 * dependency in node_modules, such as cdk8s' ApiObject), in export order: its doc comment's first
 * paragraph and each field of its constructor's props type. `root` holds the tsconfig.json whose
 * compiler options the program uses; `host` lets a test supply files that are not on disk.
 */
export function constructEntries(root: string, entry: string, host?: ts.CompilerHost): ConstructEntry[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config ?? {}, ts.sys, root);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true };
  const program = ts.createProgram({ rootNames: [join(root, entry)], options, ...(host ? { host } : {}) });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(join(root, entry));
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${entry}: not a module the compiler can read`);
  const entries: ConstructEntry[] = [];
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.find(ts.isClassDeclaration);
    if (!declaration || declaration.getSourceFile().fileName.includes('/node_modules/')) continue;
    const classType = checker.getDeclaredTypeOfSymbol(symbol);
    if (!isConstructClass(checker, classType)) continue;
    const summary = ts.displayPartsToString(symbol.getDocumentationComment(checker)).split(/\n\s*\n/)[0];
    const props = propsParameter(checker, classType);
    const propsType = props && checker.getTypeOfSymbol(props);
    entries.push({
      name: exported.name,
      source: relative(root, declaration.getSourceFile().fileName),
      summary: oneLine(summary ?? ''),
      ...(propsType ? { propsType: checker.typeToString(propsType) } : {}),
      props: propsType ? propsType.getProperties().map((p) => propRow(checker, p)) : [],
    });
  }
  return entries;
}

/** A code span that holds any text (a type with a backtick in it gets a longer fence). */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text.includes('`') ? ` ${text} ` : text}${fence}`;
}

/** The constructs reference page (docs/constructs-reference.md) for `entries`. */
export function constructsReference(entries: readonly ConstructEntry[], entry: string): string {
  const out = [
    '# Constructs reference',
    '',
    `<!-- Generated from ${entry} by \`npm run docs\` (scripts/docs/constructs-reference.ts); do not edit. -->`,
    '',
    `Every construct class \`groundwork-gitops\` exports, with the fields of its props: the type as declared, whether it is required, the \`@default\` of its doc comment, and its description. How they fit together: [constructs.md](constructs.md). \`ApiObject\` and \`Include\` are cdk8s' own and documented there.`,
    '',
    ...entries.map((e) => `- [${e.name}](#${e.name.toLowerCase()})`),
    '',
  ];
  for (const e of entries) {
    out.push(`## ${e.name}`, '');
    if (e.summary) out.push(e.summary, '');
    const props = e.propsType ? `, props: ${e.propsType}` : '';
    out.push(`\`new ${e.name}(scope, id${props})\`, declared in \`${e.source}\`.`, '');
    if (e.props.length === 0) continue;
    out.push('| Prop | Type | Required | Default | Description |', '| --- | --- | --- | --- | --- |');
    for (const p of e.props) {
      const def = p.default === undefined ? '' : cell(p.default);
      out.push(
        `| \`${p.name}\` | ${cell(code(p.type))} | ${p.required ? 'yes' : 'no'} | ${def} | ${cell(p.description)} |`,
      );
    }
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
