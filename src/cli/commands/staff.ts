import type { Command } from 'commander';
import { addStaff, ENROL_HOURS, logoutStaff, removeStaff, resetStaff, staffList } from '../../app/desk/staff.ts';
import { invalid } from '../../errors.ts';
import { print, printJson, printTable, readContext, withContext } from '../shared.ts';

/** The line under a link: who it is for, that it is shown once, and for how long it works. */
function linkNote(email: string): string {
  return `This link is shown once; it works once, for ${ENROL_HOURS} hours: give it to ${email} (not by a channel others read). There they choose a password and set up their second factor.\n`;
}

export function registerStaff(program: Command): void {
  const staff = program
    .command('staff')
    .description('the people who log in to the front desk: reception, practitioners, admins');
  staff
    .command('add <email>')
    .description('add a person; prints their one-time enrolment link')
    .requiredOption('--name <name>', 'their name, as the desk and the history show it')
    .requiredOption('--role <role>', 'admin, reception or practitioner')
    .option('--schedule <ids>', "a practitioner's schedules, e.g. 1 or 1,3 (needed for a practitioner)")
    .option('--json', 'print {"id": …, "enrol_url": "…"}')
    .action(
      async (
        email: string,
        options: { name: string; role: string; schedule?: string; json?: boolean },
        command: Command,
      ) => {
        const added = await withContext(command, (ctx) =>
          addStaff(ctx, { email, name: options.name, role: options.role, schedules: options.schedule }),
        );
        if (options.json) {
          printJson({ id: added.id, enrol_url: added.enrolUrl });
          return;
        }
        print(added.enrolUrl);
        process.stderr.write(linkNote(email.trim()));
      },
    );
  staff
    .command('list')
    .description('everyone at the desk: role, schedules, enrolled or not, open sessions (never a secret)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const people = await readContext(command, (ctx) => staffList(ctx));
      if (options.json) {
        printJson(
          people.map((person) => ({
            id: person.id,
            email: person.email,
            name: person.name,
            role: person.role,
            schedules: person.schedules,
            enrolled: person.enrolledAt !== null,
            sessions: person.sessions,
          })),
        );
        return;
      }
      if (people.length === 0) {
        print('No one at the desk yet: planner staff add <email> --name <name> --role reception');
        return;
      }
      printTable(
        ['EMAIL', 'NAME', 'ROLE', 'SCHEDULES', 'ENROLLED', 'SESSIONS'],
        people.map((person) => [
          person.email,
          person.name,
          person.role,
          person.schedules.join(',') || '-',
          person.enrolledAt === null ? 'no (link given)' : 'yes',
          String(person.sessions),
        ]),
      );
    });
  staff
    .command('remove <email>')
    .description('remove a person: their sessions end at once; the history keeps their name')
    .action(async (email: string, _options: unknown, command: Command) => {
      const person = await withContext(command, (ctx) => removeStaff(ctx, email));
      print(`Removed ${person.name} <${person.email}>; ${person.sessions} session(s) ended.`);
    });
  staff
    .command('reset <email>')
    .description('a new enrolment link: the old password, second factor and recovery codes stop working now')
    .option('--json', 'print {"id": …, "enrol_url": "…"}')
    .action(async (email: string, options: { json?: boolean }, command: Command) => {
      const { person, enrolUrl } = await withContext(command, (ctx) => resetStaff(ctx, email));
      if (options.json) {
        printJson({ id: person.id, enrol_url: enrolUrl });
        return;
      }
      print(enrolUrl);
      process.stderr.write(linkNote(person.email));
    });
  staff
    .command('logout [email]')
    .description("end a person's sessions, or everyone's with --all")
    .option('--all', "end everyone's sessions")
    .action(async (email: string | undefined, options: { all?: boolean }, command: Command) => {
      if ((email === undefined) === (options.all !== true))
        throw invalid('give one e-mail address, or --all for everyone: planner staff logout anna@praxis.example');
      const ended = await withContext(command, (ctx) => logoutStaff(ctx, options.all ? 'all' : { email: email! }));
      print(`${ended} session(s) ended.`);
    });
}
