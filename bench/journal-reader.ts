/**
 * Reads a server's stdout as systemd's journal does (issue 39: the benchmark measures `planner serve` as admins run
 * it, its access log on): another process on the other end of the pipe, reading everything as fast as it comes.
 * The line that says where the server listens is passed on to this process's stdout (the benchmark reads it); every
 * other line is read and counted, then dropped. At the end, the count on stderr when BENCH_LOG_COUNT is set.
 */
let carry = '';
let lines = 0;
let told = false;
process.stdin.on('data', (chunk: Buffer) => {
  const text = carry + chunk.toString('utf8');
  const parts = text.split('\n');
  carry = parts.pop() ?? '';
  lines += parts.length;
  if (!told) {
    const serving = parts.find((line) => line.includes('serving http'));
    if (serving) {
      told = true;
      process.stdout.write(`${serving}\n`);
    }
  }
});
process.stdin.on('end', () => {
  if (process.env.BENCH_LOG_COUNT) process.stderr.write(`journal-reader: ${lines} lines\n`);
});
