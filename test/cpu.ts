/**
 * Time measured as this thread's CPU time (user and system): what the code on this thread did. A machine busy with
 * other work takes the CPU away from the thread and so lengthens wall time, never this; a bound on it holds on a
 * loaded two-core machine as on a quiet one, and still fails when the code itself does too much. No vitest import:
 * test/calendar/sync-probe.ts runs it in a process of its own.
 */

/** Starts a stopwatch of this thread's CPU time; calling it returns the milliseconds used since. */
export function cpuStopwatch(): () => number {
  const start = process.threadCpuUsage();
  return () => {
    const used = process.threadCpuUsage(start);
    return (used.user + used.system) / 1000;
  };
}

/**
 * Watches the event loop with a 1 ms timer: the longest this thread held it between two ticks, in CPU time (what
 * its code did without giving the loop back) and in wall time (information: a loaded machine stretches it). `stop`
 * waits for the timer's next tick, so that the last stretch of work is counted too.
 */
export function watchLoopHold(): { stop(): Promise<{ cpuMs: number; wallMs: number }> } {
  let cpuMs = 0;
  let wallMs = 0;
  let sinceTick = cpuStopwatch();
  let lastWall = performance.now();
  let stopping: (() => void) | undefined;
  const timer = setInterval(() => {
    const wall = performance.now();
    cpuMs = Math.max(cpuMs, sinceTick());
    wallMs = Math.max(wallMs, wall - lastWall);
    sinceTick = cpuStopwatch();
    lastWall = wall;
    stopping?.();
  }, 1);
  return {
    async stop() {
      await new Promise<void>((resolve) => (stopping = resolve));
      clearInterval(timer);
      return { cpuMs, wallMs };
    },
  };
}
