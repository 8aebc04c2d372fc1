import { readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles as allSourceFiles } from '../helpers/source-files';

/** Declarations count too: their imports are layer imports. */
const sourceFiles = (dir: string) => allSourceFiles(dir, { declarations: true });

/** The import rules of architecture.md: which layer may import which. */
const LAYERS: Record<string, { ours: string[]; packagesForbidden?: RegExp }> = {
  'src-shared': { ours: [], packagesForbidden: /^(node:|electron$|fastify|drizzle|pg$|undici|react)/ },
  'src-server': { ours: ['src-shared'], packagesForbidden: /^(electron$|react)/ },
  'src-main': { ours: ['src-shared', 'src-server'], packagesForbidden: /^react/ },
  'src-preload': { ours: ['src-shared'], packagesForbidden: /^(node:|react|undici|keytar)/ },
  'src-renderer': { ours: ['src-shared'], packagesForbidden: /^(node:|electron$|keytar|undici|fastify|pg$|drizzle|fs$|path$|child_process$)/ },
};

const root = resolve(__dirname, '../..');
/** Build configuration that lives beside a layer but runs in Node at build time, not in the layer. */
const BUILD_FILES = new Set(['src-renderer/vite.config.ts']);

function layerOf(path: string): string | undefined {
  const top = relative(root, path).split(/[\\/]/)[0];
  return top in LAYERS ? top : top;
}

function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((imported) => imported.fileName);
}

/** Modules that hold zod schemas: a renderer import of their values would put zod into its bundle. */
const SCHEMA_MODULES = new Set(['@shared/contract', '@shared/ipc']);

/** Specifiers among `modules` that `source` imports values from (not `import type`, not only `type` names). */
function valueImportsOf(source: string, modules: Set<string>): string[] {
  const file = ts.createSourceFile('file.tsx', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  return file.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    const specifier = statement.moduleSpecifier.text;
    const clause = statement.importClause;
    if (!modules.has(specifier) || clause?.isTypeOnly) return [];
    const bindings = clause?.namedBindings;
    const onlyTypes =
      !clause?.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.every((element) => element.isTypeOnly);
    return onlyTypes ? [] : [specifier];
  });
}

/**
 * Features are vertical slices. A file of <layer>/features/<name>/ may import its own feature, the layer's shared
 * kernel and src-shared; another feature only through that feature's declared public face (its index.ts), never
 * the files behind it. In the renderer, never app/ either (the shell uses features, not the reverse).
 */
function featureImportViolations(layer: 'src-renderer' | 'src-server', file: string, specifiers: string[]): string[] {
  const featuresDir = join(root, layer, 'features');
  const feature = relative(featuresDir, file).split(/[\\/]/)[0];
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .filter((specifier) => {
      const target = relative(join(root, layer), resolve(dirname(file), specifier)).replaceAll('\\', '/');
      if (layer === 'src-renderer' && (target === 'app' || target.startsWith('app/'))) return true;
      if (!target.startsWith('features/')) return false;
      const [, other, ...rest] = target.split('/');
      if (other === undefined || other === feature) return false;
      const publicFace = rest.length === 0 || (rest.length === 1 && rest[0] === 'index');
      return !publicFace;
    })
    .map((specifier) => `${relative(root, file)} → ${specifier}`);
}

describe('layer import rules (architecture.md)', () => {
  for (const [layer, rule] of Object.entries(LAYERS)) {
    it(`${layer} imports only what it may`, () => {
      const violations: string[] = [];
      for (const file of sourceFiles(join(root, layer))) {
        if (BUILD_FILES.has(relative(root, file).replaceAll('\\', '/'))) continue;
        for (const specifier of importsOf(file)) {
          let target: string | undefined;
          if (specifier.startsWith('@shared/') || specifier === '@shared') target = 'src-shared';
          else if (specifier.startsWith('.')) target = layerOf(resolve(dirname(file), specifier));
          if (target !== undefined) {
            if (target !== layer && !rule.ours.includes(target)) violations.push(`${relative(root, file)} → ${specifier}`);
          } else if (rule.packagesForbidden?.test(specifier)) {
            violations.push(`${relative(root, file)} → ${specifier}`);
          }
        }
      }
      expect(violations).toEqual([]);
    });
  }

  it('src-main/services stays free of electron, so it runs under plain Node', () => {
    const offenders = sourceFiles(join(root, 'src-main/services')).filter((file) =>
      importsOf(file).some((s) => s === 'electron' || s.startsWith('electron/')),
    );
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });

  it('src-main reaches src-server only to start the embedded server and print what it started', () => {
    const allowed = new Set(['src-server/server.ts', 'src-server/server', 'src-server/embedded', 'src-server/console']);
    const offenders: string[] = [];
    for (const file of sourceFiles(join(root, 'src-main'))) {
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = relative(root, resolve(dirname(file), specifier)).replaceAll('\\', '/');
        if (target.startsWith('src-server') && !allowed.has(target)) offenders.push(`${relative(root, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('src-renderer takes only types from the contract and the IPC map, so no screen ships zod schemas', () => {
    const offenders = sourceFiles(join(root, 'src-renderer')).flatMap((file) =>
      valueImportsOf(readFileSync(file, 'utf8'), SCHEMA_MODULES).map((specifier) => `${relative(root, file)} → ${specifier}`),
    );
    expect(offenders).toEqual([]);
    expect(
      valueImportsOf("import { contract, type Account } from '@shared/contract';\nimport type { IpcResult } from '@shared/ipc';", SCHEMA_MODULES),
    ).toEqual(['@shared/contract']);
  });

  for (const layer of ['src-renderer', 'src-server'] as const) {
    it(`keeps ${layer} features apart: another feature only through its index.ts`, () => {
      const featuresDir = join(root, layer, 'features');
      const offenders = sourceFiles(featuresDir).flatMap((file) => featureImportViolations(layer, file, importsOf(file)));
      expect(offenders).toEqual([]);
    });
  }

  it('the feature rule itself can fail', () => {
    const admin = join(root, 'src-renderer/features/admin/AdminPage.tsx');
    expect(
      featureImportViolations('src-renderer', admin, [
        '../../app/modal',
        '../auth/atoms',
        '../auth',
        '../auth/index',
        './atoms',
        '../../lib/session',
        '../../ui/Dialog',
      ]),
    ).toEqual(['src-renderer/features/admin/AdminPage.tsx → ../../app/modal', 'src-renderer/features/admin/AdminPage.tsx → ../auth/atoms']);
    const handlers = join(root, 'src-server/features/projects/handlers.ts');
    expect(featureImportViolations('src-server', handlers, ['../adverts/queries', '../adverts', '../../db/client', './queries'])).toEqual([
      'src-server/features/projects/handlers.ts → ../adverts/queries',
    ]);
  });

  it('detects a violation (the check itself can fail)', () => {
    const info = ts.preProcessFile("import { x } from '../../src-server/app';\nimport 'electron';", true, true);
    expect(info.importedFiles.map((f) => f.fileName)).toEqual(['../../src-server/app', 'electron']);
  });
});
