/**
 * CONTRIBUTING.md's layout and rule index point where the code is (issue 30): a file it names exists, a name it
 * says is in a file is defined there, and every source file is in the layout. A move or a rename that leaves the
 * index behind fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
const layout = text.slice(text.indexOf('## Layout'), text.indexOf('## Where each rule lives'));
const index = text.slice(text.indexOf('## Where each rule lives'));

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  );
}

describe('CONTRIBUTING.md', () => {
  it('names only files that exist', () => {
    const named = [
      ...new Set(text.match(/\b(?:src|test|scripts|bench|deploy)\/[\w./-]+\.(?:ts|json|service)\b/g) ?? []),
    ];
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('finds each name it places in a file ("`name` in `src/…`") in that file', () => {
    const pairs = [...index.matchAll(/`([A-Za-z_]\w*)(?:\(\))?`\s+(?:in|there:?)\s+`?(src\/[\w./-]+\.ts)/g)].map(
      (match): [string, string] => [match[1]!, match[2]!],
    );
    expect(pairs.length).toBeGreaterThan(50);
    const missing = pairs.filter(
      ([name, path]) => !new RegExp(`\\b${name}\\b`).test(readFileSync(join(ROOT, path), 'utf8')),
    );
    expect(missing).toEqual([]);
  });

  it('lists every source file in its layout (the CLI commands as commands/*.ts)', () => {
    const files = sourceFiles('src').filter((file) => !file.startsWith(join('src', 'cli', 'commands')));
    const unlisted = files.filter(
      (file) => !new RegExp(`\\b${basename(file).replace('.', '\\.')}|\\b${basename(file, '.ts')}\\b`).test(layout),
    );
    expect(unlisted.map((file) => relative(ROOT, join(ROOT, file)))).toEqual([]);
  });
});
