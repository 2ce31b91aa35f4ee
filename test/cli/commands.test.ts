/**
 * A command loads only its own module (src/cli/commands.ts): the table must name every command, each entry must
 * register exactly the command it is filed under, and the word read from the arguments must be the command's.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandWord, registerCommands } from '../../src/cli/commands.ts';
import { cli, tempDb } from '../helpers.ts';

const namesOf = (program: Command) => program.commands.map((command) => command.name());

describe('the commands, each loaded alone', () => {
  it('with no command word every command is registered, in the table’s order', async () => {
    const program = new Command('planner');
    await registerCommands(program, []);
    expect(namesOf(program)).toEqual(COMMANDS.map(([name]) => name));
    expect(namesOf(program)).toHaveLength(30);
  });

  it('each entry registers exactly the command it is filed under', async () => {
    for (const [name] of COMMANDS) {
      const program = new Command('planner');
      await registerCommands(program, ['--db', name === 'status' ? 'init' : 'status', name, '--help']);
      expect(namesOf(program), name).toEqual([name]);
    }
  });

  it('reads the command past --db and its value; none for --version alone; all for a word that is no command', async () => {
    expect(commandWord(['--db', 'bookings', 'status', 'x'])).toBe('status');
    expect(commandWord(['--db=bookings', 'slots', '1'])).toBe('slots');
    expect(commandWord(['-v'])).toBeUndefined();
    const version = new Command('planner');
    await registerCommands(version, ['--version']);
    expect(namesOf(version)).toEqual([]);
    const typo = new Command('planner');
    await registerCommands(typo, ['statsu']);
    expect(namesOf(typo)).toHaveLength(COMMANDS.length);
  });

  it('a typo still gets its suggestion, and the help still lists every command (the real CLI)', async () => {
    const db = tempDb();
    const typo = await cli(db, 'bookigns', 'list');
    expect(typo).toMatchObject({ code: 1, stdout: '' });
    expect(typo.stderr).toBe("planner: unknown command 'bookigns' (Did you mean bookings?)\n");
    const help = await cli(db, 'help');
    for (const [name] of COMMANDS) expect(help.stdout).toContain(`\n  ${name} `);
  });
});
