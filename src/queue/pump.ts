/** A background loop that drains a queue: `pass()` handles one batch and says whether more may be waiting. */
export interface Pump {
  /** Looks for due work now, without waiting for the next poll. */
  kick(): void;
  /** Handles what is due now and resolves when that pass has finished. */
  flush(): Promise<void>;
  /** Stops polling and resolves when the pass in progress, if any, has finished. */
  stop(): Promise<void>;
  /** True once `stop()` was called: a pass ends its batch early. */
  stopped(): boolean;
}

/**
 * Runs `pass` every `pollMs` and whenever kicked, never two at a time: a kick during a pass makes another pass
 * follow it. A pass that throws is logged, and the next poll tries again.
 */
export function startPump(
  pass: () => Promise<boolean>,
  options: { pollMs: number; log: (line: string) => void; what: string },
): Pump {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const run = async (): Promise<void> => {
    do {
      again = false;
      if (await pass()) again = true;
    } while (again && !stopped);
  };
  const tick = () => {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = run()
      .catch((error: unknown) =>
        options.log(`planner: the ${options.what} could not be read: ${(error as Error).message}`),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, options.pollMs);
  timer.unref();
  setImmediate(tick); // not at once: `pass` may use the pump this function is about to return

  return {
    kick: () => setImmediate(tick),
    async flush() {
      await running;
      tick();
      await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
    stopped: () => stopped,
  };
}
