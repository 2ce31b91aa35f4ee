#!/usr/bin/env node
// Launcher: Node 24 runs the TypeScript sources directly (type stripping), so no build step is needed.
// `npm install` puts Node 24 (devDependency `node`) first on PATH for `npx planner` and npm scripts.
// package.json has no `engines` field on purpose: npm would print EBADENGINE warnings on every `npx planner` run
// on a machine whose own Node is older, although npx then runs Node 24. This check is the one that matters.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `planner: needs Node 24 (for node:sqlite), this is Node ${process.versions.node}: in a clone run \`npm ci\`, then \`npx planner …\` (npm brings Node 24), or use the single executable\n`,
  );
  process.exit(1);
}
// Node keeps what it compiled (the type-stripped sources too) in its cache under the temp folder, so a command
// starts in about 0.2 s instead of 0.35 s; where that folder cannot be written, Node goes on without it.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
await import('../src/cli/main.ts');
