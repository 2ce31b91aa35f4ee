/**
 * The linter's rules catch real defects, and the formatter holds the tree. The project's own Biome
 * configuration (biome.json) is run, as `npm test` runs it, on a file written with the defects it must find: a
 * promise nobody awaits, a variable never used, code after a return, an unused import, and on a file not formatted;
 * each is found (a configuration that lost a rule would let its defect through).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

/** Runs Biome (`command`) with the project's rules on one file holding `text`; returns its diagnostics' rule names. */
function biome(
  command: 'lint' | 'format' | 'check',
  text: string,
  file = 'probe.ts',
): Promise<{ code: number; rules: string[]; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'planner-lint-'));
  mkdirSync(join(dir, 'src'));
  const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
  delete config.$schema;
  delete config.vcs; // the probe is no git checkout
  config.files = { includes: ['**'] };
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
  writeFileSync(join(dir, file), text);
  return new Promise((resolve) => {
    execFile(
      join(ROOT, 'node_modules/.bin/biome'),
      [command, file, '--colors=off'],
      { cwd: dir },
      (error, stdout, stderr) => {
        rmSync(dir, { recursive: true, force: true });
        const output = `${stdout}${stderr}`;
        resolve({
          code: error ? (error.code as number) : 0,
          rules: [...output.matchAll(/lint\/\w+\/(\w+)/g)].map((match) => match[1]!).sort(),
          output,
        });
      },
    );
  });
}

describe('the linter and the formatter', () => {
  it('finds a floating promise, an unused variable and import, and unreachable code', async () => {
    const probe = [
      "import { readFileSync } from 'node:fs';",
      '',
      'async function save(): Promise<number> {',
      '  return 1;',
      '}',
      '',
      'export function book(): void {',
      '  save();',
      '  const unused = 2;',
      '  return;',
      '  console.log(3);',
      '}',
      '',
    ].join('\n');
    const found = await biome('lint', probe);
    expect(found.code).not.toBe(0);
    expect(found.rules).toEqual(['noFloatingPromises', 'noUnreachable', 'noUnusedImports', 'noUnusedVariables']);
  });

  it('refuses a function of src/ more complex than 25 (cognitive complexity), and passes one below', async () => {
    // Each nested `if` costs its depth: four loops of ifs nested five deep cost 4 × (1+2+3+4+5) = 60; one deep, 15.
    const nested = (depth: number) =>
      Array.from({ length: depth }, (_, level) => `${'  '.repeat(level + 2)}if (x > ${level}) {`).join('\n') +
      '\n' +
      Array.from({ length: depth }, (_, level) => `${'  '.repeat(depth - level + 1)}}`).join('\n');
    const probe = (blocks: number, depth: number) =>
      `export function f(x: number): void {\n${Array.from({ length: blocks }, () => `  {\n${nested(depth)}\n  }`).join('\n')}\n}\n`;
    const complex = await biome('lint', probe(4, 5), 'src/probe.ts');
    expect(complex.rules).toEqual(['noExcessiveCognitiveComplexity']);
    expect(complex.output).toMatch(/Excessive complexity of 60 detected \(max: 25\)/);
    expect((await biome('lint', probe(1, 6), 'src/probe.ts')).rules).toEqual([]); // 21
  });

  it('refuses imports out of order (import organising is on), and passes them sorted', async () => {
    const imports = (first: string, second: string) =>
      `import { ${first} } from 'node:${first === 'join' ? 'path' : 'fs'}';\nimport { ${second} } from 'node:${second === 'join' ? 'path' : 'fs'}';\n\nexport const a = [${first}, ${second}];\n`;
    const unsorted = await biome('check', imports('join', 'readFileSync'));
    expect(unsorted.code).not.toBe(0);
    expect(unsorted.output).toMatch(/organizeImports/);
    expect((await biome('check', imports('readFileSync', 'join'))).code).toBe(0);
  });

  it('refuses a file that is not formatted, and passes one that is', async () => {
    expect((await biome('format', 'export const a = {b:1,c:"x"}\n')).code).not.toBe(0);
    expect((await biome('format', "export const a = { b: 1, c: 'x' };\n")).code).toBe(0);
  });
});
