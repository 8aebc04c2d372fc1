import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtFiles, importsOf, out, packageOf, root, staticPackages } from './built-files';

const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const code = (folder: string) => builtFiles(folder).filter((file) => /\.(c|m)?js$/.test(file));

describe('the desktop build (out/)', () => {
  it('writes code that parses: every file of out/main and out/preload passes node --check', () => {
    const files = [...code('main'), ...code('preload')];
    expect(files).toEqual(expect.arrayContaining(['main/index.js', 'main/embedded-server.js', 'preload/index.cjs']));
    // A shim or a string literal placed wrongly by the bundler (electron-vite 5's CommonJS shim inside a string) is a
    // syntax error here, not at a user's first start.
    for (const file of files) execFileSync(process.execPath, ['--check', out(file)], { stdio: 'pipe' });
  });

  it('writes a CommonJS preload, as a sandboxed renderer needs', () => {
    const preload = readFileSync(out('preload/index.cjs'), 'utf8');
    // .cjs parses as a script: an import or export statement failed node --check above; Electron is required.
    expect(importsOf(preload).statics).toEqual(['electron']);
    expect(preload).toMatch(/require\(["']electron["']\)/);
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('links every import: relative ones to built files, bare ones to production dependencies (the optional desktop ones included) or Node', () => {
    const allowed = new Set([
      ...Object.keys(packageJson.dependencies),
      ...Object.keys(packageJson.optionalDependencies),
      'electron',
      ...builtinModules,
    ]);
    for (const file of code('main')) {
      const { statics, dynamics } = importsOf(readFileSync(out(file), 'utf8'));
      for (const specifier of [...statics, ...dynamics]) {
        if (specifier.startsWith('.')) expect(existsSync(resolve(dirname(out(file)), specifier)), `${file} → ${specifier}`).toBe(true);
        else if (!specifier.startsWith('node:')) expect(allowed.has(packageOf(specifier)), `${file} → ${specifier}`).toBe(true);
      }
    }
  });

  it('loads no S3 client or API reference when the app and its embedded server start', () => {
    // electron-builder.yml leaves those packages out of the app: a static import of them would fail at start.
    for (const entry of ['main/index.js', 'main/embedded-server.js']) {
      const packages = [...staticPackages(entry)];
      expect(
        packages.filter((name) => /^@aws-sdk\/|^@fastify\/swagger/.test(name)),
        entry,
      ).toEqual([]);
    }
  });

  it('ships the migrations and the migrated PGlite template beside the embedded server', () => {
    expect(builtFiles('main/migrations').some((file) => file.endsWith('.sql'))).toBe(true);
    expect(existsSync(out('main/pglite-template/PG_VERSION'))).toBe(true);
  });

  it('writes source maps beside the code, hidden from the renderer pages', () => {
    for (const file of ['main/index.js', 'main/embedded-server.js', 'preload/index.cjs']) expect(existsSync(out(`${file}.map`)), file).toBe(true);
    const rendererCode = code('renderer');
    expect(rendererCode.length).toBeGreaterThan(10);
    for (const file of rendererCode) {
      expect(existsSync(out(`${file}.map`)), file).toBe(true);
      expect(readFileSync(out(file), 'utf8'), file).not.toContain('sourceMappingURL');
    }
  });

  it('leaves normal modes: the renderer, preload, main and template are readable by others like any new file', () => {
    // What a new file of this process gets from the umask; the build ran under the same one.
    const probe = join(root, 'out', `.mode-probe-${process.pid}`);
    writeFileSync(probe, 'x');
    const expected = statSync(probe).mode & 0o777;
    rmSync(probe);
    for (const folder of ['main', 'preload', 'renderer']) {
      for (const file of builtFiles(folder)) {
        const info = statSync(out(file));
        if (!info.isFile()) continue;
        // The template is made 0644 on purpose (src-server/db/build-template.ts), whatever the umask.
        const mode = info.mode & 0o777;
        if (file.startsWith('main/pglite-template/')) expect(mode, file).toBe(0o644);
        else expect(mode, file).toBe(expected);
      }
    }
  });
});
