/**
 * The layout CONTRIBUTING draws, held to the code. Every relative import of src/ is read (with the TypeScript
 * compiler's parser, so a multi-line import or a `type` one is read as TypeScript reads it): no import circle; no door
 * (http/, cli/) calls into store/ or mail/ (a type may cross: a row's type the CLI prints, say; only imports that
 * bring a value count); and app/ in rooms named for what a user does, each importing only the rooms below it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of `file`: the file it names (relative to src/), and whether it brings a value. */
function importsOf(file: string): { to: string; value: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: { to: string; value: boolean }[] = [];
  for (const statement of source.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier)
      continue;
    const spec = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!spec.startsWith('.')) continue;
    let value = true;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (!clause || clause.isTypeOnly)
        value = clause === undefined; // a bare import runs the module
      else if (!clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings)) {
        value = clause.namedBindings.elements.some((element) => !element.isTypeOnly);
      }
    } else value = !statement.isTypeOnly;
    found.push({ to: relative(SRC, resolve(dirname(file), spec)), value });
  }
  return found;
}

const graph = new Map(sources(SRC).map((file) => [relative(SRC, file), importsOf(file)]));

describe('the layout of src/ (CONTRIBUTING "Layout")', () => {
  it('reads the imports it judges', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(
      graph.get('http/booking-page.ts')!.some((edge) => edge.to === 'app/pages/page-booking.ts' && edge.value),
    ).toBe(true);
  });

  it('has no import circle', () => {
    // Tarjan's strongly connected components over every import, types too (a circle of types is a circle to read).
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const circles: string[][] = [];
    let next = 0;
    const visit = (node: string) => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      for (const { to } of graph.get(node) ?? []) {
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          visit(to);
          low.set(node, Math.min(low.get(node)!, low.get(to)!));
        } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
      if (low.get(node) === index.get(node)) {
        const circle: string[] = [];
        for (let member = stack.pop()!; ; member = stack.pop()!) {
          circle.push(member);
          if (member === node) break;
        }
        if (circle.length > 1) circles.push(circle.sort());
      }
    };
    for (const node of graph.keys()) if (!index.has(node)) visit(node);
    expect(circles).toEqual([]);
  });

  it('no door (http/, cli/) calls into store/ or mail/ (a type may be imported)', () => {
    const door = (path: string) => path.startsWith('http/') || path.startsWith('cli/');
    const crossing = [...graph].flatMap(([from, edges]) =>
      edges
        .filter(({ to, value }) => value && door(from) && (to.startsWith('store/') || to.startsWith('mail/')))
        .map(({ to }) => `${from} -> ${to}`),
    );
    expect(crossing).toEqual([]);
  });

  it('app/ is in rooms, each importing only the rooms on the floors below it', () => {
    // Top down; rooms on one floor do not import each other. context.ts, what every use case is given, is the ground.
    const FLOORS = [
      ['operations'],
      ['calendars'],
      ['desk'],
      ['pages', 'customers'],
      ['bookings'],
      ['messages'],
      ['practice'],
    ];
    const floorOf = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor])));
    const roomOf = (path: string) => path.split('/')[1]!;
    const flat = [...graph.keys()].filter((path) => /^app\/[^/]+$/.test(path) && path !== 'app/context.ts');
    expect(flat, 'a file of app/ outside a room').toEqual([]);
    const rooms = new Set(
      [...graph.keys()].filter((path) => path.split('/').length === 3 && path.startsWith('app/')).map(roomOf),
    );
    expect([...rooms].sort()).toEqual([...floorOf.keys()].sort());
    const upward = [...graph].flatMap(([from, edges]) =>
      from.startsWith('app/') && from !== 'app/context.ts'
        ? edges
            .filter(({ to }) => to.startsWith('app/') && to !== 'app/context.ts' && roomOf(to) !== roomOf(from))
            .filter(({ to }) => floorOf.get(roomOf(to))! <= floorOf.get(roomOf(from))!)
            .map(({ to }) => `${from} -> ${to}`)
        : [],
    );
    expect(upward).toEqual([]);
  });
});
