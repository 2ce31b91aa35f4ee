/**
 * Which module registers each top-level command. A command loads only its own module and what that imports, not
 * every command's (`planner status` loads 95 of the CLI's 161 modules): on the demo file `status` took 166 → 143 ms,
 * `slots` 205 → 133 ms, `bookings list` 199 → 150 ms and `--version` 155 → 51 ms, which every admin's command and
 * every CLI call of the tests gain. The help, a `help` word, and a word that is no command
 * register them all, in the help's order, so the help lists every command and a typo gets its suggestion.
 */
import type { Command } from 'commander';

type Register = (program: Command) => void;

/** Every top-level command, in the order the help lists them, with the function that registers it. */
export const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<Register>]> = [
  ['init', () => import('./commands/init.ts').then((module) => module.registerInit)],
  ['status', () => import('./commands/status.ts').then((module) => module.registerStatus)],
  ['practice', () => import('./commands/practice.ts').then((module) => module.registerPractice)],
  ['api', () => import('./commands/api.ts').then((module) => module.registerApi)],
  ['token', () => import('./commands/token.ts').then((module) => module.registerToken)],
  ['schedule', () => import('./commands/schedule.ts').then((module) => module.registerSchedule)],
  ['reason', () => import('./commands/reason.ts').then((module) => module.registerReason)],
  ['hours', () => import('./commands/hours.ts').then((module) => module.registerHours)],
  ['closure', () => import('./commands/closure.ts').then((module) => module.registerClosure)],
  ['field', () => import('./commands/field.ts').then((module) => module.registerField)],
  ['slots', () => import('./commands/slots.ts').then((module) => module.registerSlots)],
  ['bookings', () => import('./commands/bookings.ts').then((module) => module.registerBookings)],
  ['mail', () => import('./commands/mail.ts').then((module) => module.registerMail)],
  ['reminders', () => import('./commands/reminders.ts').then((module) => module.registerReminders)],
  ['webhook', () => import('./commands/webhook.ts').then((module) => module.registerWebhook)],
  ['calendar', () => import('./commands/calendar.ts').then((module) => module.registerCalendar)],
  ['portal', () => import('./commands/portal.ts').then((module) => module.registerPortal)],
  ['booking-page', () => import('./commands/booking-page.ts').then((module) => module.registerBookingPage)],
  ['desk', () => import('./commands/desk.ts').then((module) => module.registerDesk)],
  ['staff', () => import('./commands/staff.ts').then((module) => module.registerStaff)],
  ['customer', () => import('./commands/customer.ts').then((module) => module.registerCustomer)],
  ['retention', () => import('./commands/retention.ts').then((module) => module.registerRetention)],
  ['audit', () => import('./commands/retention.ts').then((module) => module.registerAudit)],
  ['proxy', () => import('./commands/proxy.ts').then((module) => module.registerProxy)],
  ['feed', () => import('./commands/feed.ts').then((module) => module.registerFeed)],
  ['demo', () => import('./commands/demo.ts').then((module) => module.registerDemo)],
  ['openapi', () => import('./commands/openapi.ts').then((module) => module.registerOpenApi)],
  ['serve', () => import('./commands/serve.ts').then((module) => module.registerServe)],
  ['backup', () => import('./commands/backup.ts').then((module) => module.registerBackup)],
  ['doctor', () => import('./commands/doctor.ts').then((module) => module.registerDoctor)],
];

/**
 * Returns the top-level command `words` run (the first word that is no option, nor the value of `--db`, the one
 * option before a command that takes one), or undefined when there is none.
 */
export function commandWord(words: readonly string[]): string | undefined {
  return words.find((word, index) => !word.startsWith('-') && words[index - 1] !== '--db');
}

/**
 * Registers on `program` what the arguments `words` (without node and the script) need: the command they name
 * alone; none for `--version` without a command; else every command.
 */
export async function registerCommands(program: Command, words: readonly string[]): Promise<void> {
  const word = commandWord(words);
  const named = COMMANDS.find(([name]) => name === word);
  const wanted =
    named !== undefined
      ? [named]
      : word === undefined && words.some((w) => w === '-v' || w === '--version')
        ? []
        : COMMANDS;
  for (const register of await Promise.all(wanted.map(([, load]) => load()))) register(program);
}
