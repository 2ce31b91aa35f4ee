#!/usr/bin/env node
// Launcher: Node 24 runs the TypeScript sources directly (type stripping), so no build step is needed.
// `npm install` puts Node 24 (devDependency `node`) first on PATH for `npx planner` and npm scripts.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(`planner: needs Node >= 24 (node:sqlite); this is Node ${process.versions.node}. Run it as \`npx planner\` after \`npm install\`, or use the single executable.\n`);
  process.exit(1);
}
await import('../src/cli/main.ts');
