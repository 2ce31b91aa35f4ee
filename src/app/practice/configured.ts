/**
 * Whether `planner init` has run, the one question nearly every use case asks first: `requireConfigured` answers it
 * with the settings of a configured installation, or the error that says to run init.
 */
import { AppError } from '../../errors.ts';
import type { Settings } from '../../store/settings.ts';
import type { AppContext } from '../context.ts';

/** The settings of a configured installation: the fields `init` fills are present. */
export type ConfiguredSettings = Settings & {
  practiceName: string;
  timeZone: string;
  notifyEmail: string;
  configuredAt: string;
};

/** Returns true when `planner init` has completed. */
export function isConfigured(settings: Settings): settings is ConfiguredSettings {
  return settings.configuredAt !== null;
}

/** Returns the settings, or throws `not_configured` with the fix when `init` has not run. */
export function requireConfigured(ctx: AppContext): ConfiguredSettings {
  const settings = ctx.settings();
  if (!isConfigured(settings)) {
    throw new AppError('not_configured', 'planner is not set up yet: run `planner init` first');
  }
  return settings;
}
