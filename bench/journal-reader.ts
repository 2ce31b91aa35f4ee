/**
 * Reads a server's stdout as systemd's journal does (issue 39: the benchmark measures `planner serve` as admins run
 * it, its access log on): another process on the other end of the pipe, reading everything as fast as it comes.
 * The lines that say where the servers listen (one reader may read several servers) are passed on to this process's
 * stdout (the benchmark reads them); every other line is read and counted, then dropped. At the end, the count on stderr when BENCH_LOG_COUNT is set.
 */
let carry = '';
let lines = 0;
process.stdin.on('data', (chunk: Buffer) => {
  const text = carry + chunk.toString('utf8');
  const parts = text.split('\n');
  carry = parts.pop() ?? '';
  lines += parts.length;
  for (const line of parts) if (line.includes('serving http')) process.stdout.write(`${line}\n`);
});
process.stdin.on('end', () => {
  if (process.env.BENCH_LOG_COUNT) process.stderr.write(`journal-reader: ${lines} lines\n`);
});
