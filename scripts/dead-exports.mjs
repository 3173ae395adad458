// `node scripts/dead-exports.mjs`: lists exported names of src/ modules that no module (src, test,
// bench, bin, scripts) imports, one `file:line<TAB>name<TAB>local|unused<TAB>kind` a line: `unused` is
// dead code, `local` an export only its own file uses. Imports are read syntactically (named, default,
// namespace and dynamic `(await import(x)).name`; a namespace import counts as using everything).
// src/index.ts is the public API: its re-exports count as uses. A review aid, not a lint test.
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, resolve, relative } from 'node:path';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const files = [];
const walk = (d) => {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (f === 'node_modules' || f === 'dist' || f.startsWith('.')) continue;
    const s = statSync(p);
    if (s.isDirectory()) walk(p);
    else if (/\.(ts|mts|js|mjs)$/.test(f) && !f.endsWith('.d.ts')) files.push(p);
  }
};
for (const d of ['src', 'test', 'bench', 'bin', 'scripts', '.ci'])
  if (existsSync(join(root, d))) walk(join(root, d));
for (const f of readdirSync(root)) if (/\.(ts|mjs|js)$/.test(f)) files.push(join(root, f));
const used = new Map(); // file -> Set(names) | '*'
const mark = (file, name) => {
  if (!used.has(file)) used.set(file, new Set());
  const s = used.get(file);
  if (s !== '*') {
    if (name === '*') used.set(file, '*');
    else s.add(name);
  }
};
const resolveSpec = (from, spec) => {
  if (!spec.startsWith('.')) return undefined;
  let p = resolve(dirname(from), spec);
  for (const c of [p.replace(/\.js$/, '.ts'), p, p + '.ts', join(p, 'index.ts'), p.replace(/\.mjs$/, '.mts')])
    if (existsSync(c) && statSync(c).isFile()) return c;
  return undefined;
};
const exportsOf = new Map();
for (const file of files) {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const exp = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolveSpec(file, node.moduleSpecifier.text);
      if (target) {
        const c = node.importClause;
        if (!c) mark(target, '*');
        else {
          if (c.name) mark(target, 'default');
          if (c.namedBindings) {
            if (ts.isNamespaceImport(c.namedBindings)) mark(target, '*');
            else for (const e of c.namedBindings.elements) mark(target, (e.propertyName ?? e.name).text);
          }
        }
      }
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const target = resolveSpec(file, node.moduleSpecifier.text);
      if (target) {
        if (!node.exportClause || ts.isNamespaceExport(node.exportClause)) mark(target, '*');
        else
          for (const e of node.exportClause.elements) {
            mark(target, (e.propertyName ?? e.name).text);
            if (src.fileName.startsWith(root + '/src/'))
              exp.push({
                name: e.name.text,
                line: src.getLineAndCharacterOfPosition(e.getStart()).line + 1,
                reexport: true,
              });
          }
      }
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const target = resolveSpec(file, node.arguments[0].text);
      if (target) {
        // (await import('x')).name or const { a } = await import('x')
        let p = node.parent;
        while (p && (ts.isAwaitExpression(p) || ts.isParenthesizedExpression(p))) p = p.parent;
        if (p && ts.isPropertyAccessExpression(p)) mark(target, p.name.text);
        else if (p && ts.isVariableDeclaration(p) && ts.isObjectBindingPattern(p.name))
          for (const e of p.name.elements) mark(target, (e.propertyName ?? e.name).getText());
        else mark(target, '*');
      }
    } else if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'require' &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const target = resolveSpec(file, node.arguments[0].text);
      if (target) mark(target, '*');
    }
    if (
      file.startsWith(root + '/src/') &&
      node.parent === src &&
      ts.canHaveModifiers?.(node) &&
      ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      const names = [];
      if (ts.isVariableStatement(node))
        for (const d of node.declarationList.declarations) {
          if (ts.isIdentifier(d.name)) names.push(d.name.text);
        }
      else if (node.name) names.push(node.name.text);
      const isDefault = ts.getModifiers(node).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      for (const n of isDefault ? ['default'] : names)
        exp.push({
          name: n,
          line: src.getLineAndCharacterOfPosition(node.getStart()).line + 1,
          kind: ts.SyntaxKind[node.kind],
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  if (exp.length) exportsOf.set(file, { exp, text: src });
}
// string-based references (e.g. vitest globalSetup paths, package.json bin/exports)
for (const [file, { exp, text }] of exportsOf) {
  if (file === join(root, 'src', 'index.ts')) continue; // the public API
  const u = used.get(file);
  if (u === '*') continue;
  for (const e of exp) {
    if (u?.has(e.name)) continue;
    // used locally?
    const body = text.getFullText();
    const count = (body.match(new RegExp(`\\b${e.name}\\b`, 'g')) ?? []).length;
    console.log(
      `${relative(root, file)}:${e.line}\t${e.name}\t${count > 1 ? 'local' : 'unused'}\t${e.kind ?? 'reexport'}`,
    );
  }
}
