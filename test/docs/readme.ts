import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ROOT, watchOutput } from '../helpers.ts';

/**
 * Returns the first fenced code block in `lang` under the README heading `heading` (its text, without the `#`s),
 * before the next heading of the same or a higher level. Throws when the README has none, so a renamed section
 * fails the test that runs it instead of passing on nothing.
 */
export function readmeBlock(heading: string, lang: string): string {
  return readmeBlocks(heading, lang)[0]!;
}

/** Every fenced code block in `lang` under the README heading `heading`, in order; throws when there is none. */
export function readmeBlocks(heading: string, lang: string): string[] {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  // Heading levels by line (0: not a heading); a `# comment` inside a code block is not one.
  let fenced = false;
  const levels = lines.map((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && /^#+ /.test(line) ? /^#+/.exec(line)![0].length : 0;
  });
  const start = lines.findIndex((line, index) => levels[index]! > 0 && line.replace(/^#+ /, '') === heading);
  if (start < 0) throw new Error(`README.md has no heading "${heading}"`);
  const end = levels.findIndex((level, index) => index > start && level > 0 && level <= levels[start]!);
  const section = lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
  const blocks = [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1]!);
  if (blocks.length === 0) throw new Error(`README.md has no \`\`\`${lang} block under "${heading}"`);
  return blocks;
}

/** The commands of a shell block: one per line (a trailing `\` joins the next line), blank lines dropped. */
export function commandsOf(block: string): string[] {
  return block
    .replace(/\\\n/g, '')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/**
 * The environment a newcomer's shell has: this process's, less what `npm test` added (its `node_modules/.bin` on
 * PATH, which would lend the commands under test this checkout's Node 24, and its `npm_*` variables).
 */
export function newcomerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD') env[key] = value;
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.includes(`node_modules${'/'}.bin`) && !dir.includes('node-gyp-bin'))
    .join(delimiter);
  return { ...env, PLANNER_DB: '', ...extra };
}

export interface ShellProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the output matches `pattern` (rejects when the process exits first), with the match. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /**
   * SIGTERM to the whole process group (sh, npm, node), SIGKILL after 10 s; resolves with the exit code, or the
   * signal's name when the outermost process (npm passes the signal on, then ends by it) died of it.
   */
  stop(): Promise<number | string | null>;
}

/** Runs `command` with `sh -c` in its own process group, collecting stdout and stderr together. */
export function shell(command: string, cwd: string, env: NodeJS.ProcessEnv): ShellProcess {
  const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  return {
    child,
    ...watchOutput(child, `\`${command}\``),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? child.signalCode;
      const signal = (name: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, name);
        } catch {
          // the group is gone already
        }
      };
      signal('SIGTERM');
      const escalate = setTimeout(() => signal('SIGKILL'), 10_000);
      const [code, signalName] = await exited;
      clearTimeout(escalate);
      return (code as number | null) ?? (signalName as string);
    },
  };
}
