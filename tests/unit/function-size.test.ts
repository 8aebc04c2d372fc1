import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/source-files';

/** No function, arrow or method body over this many lines in src-*; a longer one is split into named steps. */
const MAX_BODY_LINES = 150;
const LAYERS = ['src-shared', 'src-server', 'src-main', 'src-preload', 'src-renderer'];

const root = resolve(__dirname, '../..');

/** A readable name for a function: its own, its variable's, its property's or method's, else where it starts. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name)
    return parent.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return `(anonymous at line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1})`;
}

/** Every function body of `source` longer than `limit` lines, as `path: name (lines)`. */
export function longFunctions(path: string, source: string, limit = MAX_BODY_LINES): string[] {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const body = node.body as ts.Node;
      const lines = file.getLineAndCharacterOfPosition(body.getEnd()).line - file.getLineAndCharacterOfPosition(body.getStart(file)).line + 1;
      if (lines > limit) found.push(`${path}: ${nameOf(node as ts.FunctionLikeDeclaration, file)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('function size', () => {
  it(`no function body in ${LAYERS.join(', ')} is over ${MAX_BODY_LINES} lines`, () => {
    const offenders = LAYERS.flatMap((layer) => sourceFiles(join(root, layer))).flatMap((file) =>
      longFunctions(relative(root, file).replaceAll('\\', '/'), readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('finds a long function, arrow and method (the check itself can fail)', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const source = [
      `export function long() {\n${body(4)}\n}`,
      `const arrow = () => {\n${body(4)}\n};`,
      `class Holder {\n  method() {\n${body(4)}\n  }\n}`,
      `const handlers = { 'x.y': async () => {\n${body(4)}\n} };`,
      `function short() {\n${body(2)}\n}`,
    ].join('\n');
    expect(longFunctions('sample.ts', source, 5)).toEqual([
      'sample.ts: long (6 lines)',
      'sample.ts: arrow (6 lines)',
      'sample.ts: method (6 lines)',
      "sample.ts: 'x.y' (6 lines)",
    ]);
  });
});
