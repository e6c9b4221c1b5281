/**
 * Child processes of a benchmark run: spawning (optionally pinned to a CPU), readiness, resource
 * sampling from /proc, and a cleanup that ends every process this run started, by pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const started = new Set<ChildProcess>();
/** CPU time of the children this run has stopped (read just before stopping them). */
let stoppedChildrenCpuMs = 0;

export interface SpawnedProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Last lines of stdout/stderr, for error messages. */
  output(): string;
  /** Rejects as soon as the process exits (a target that dies mid-run). */
  exited: Promise<never>;
  stop(): Promise<void>;
}

export const hasTaskset = existsSync('/usr/bin/taskset') || existsSync('/bin/taskset');

/**
 * BENCH_CHILD_OUTPUT (a directory): every child's whole stdout and stderr also go to
 * `<directory>/<name>.log` (for `--trace-gc-nvp` and the like in BENCH_NODE_ARGS / PROFILE_NODE_ARGS).
 */
function outputCopyOf(name: string): WriteStream | null {
  const directory = process.env.BENCH_CHILD_OUTPUT?.trim();
  if (!directory) return null;
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.log`);
  return createWriteStream(file, { flags: 'a' });
}

/** Spawns `command args` with a ring buffer of its output; `cpus` pins it with taskset. */
export function spawnProcess(
  name: string,
  command: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; cpus?: string | null; ipc?: boolean } = {},
): SpawnedProcess {
  const argv = options.cpus && hasTaskset ? ['-c', options.cpus, command, ...args] : args;
  const executable = options.cpus && hasTaskset ? 'taskset' : command;
  const child = spawn(executable, argv, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      lines.push(line.slice(0, 400));
      if (lines.length > 40) lines.shift();
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const copy = outputCopyOf(name);
  if (copy) {
    child.stdout?.pipe(copy, { end: false });
    child.stderr?.pipe(copy, { end: false });
  }
  let stopping = false;
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('exit', (code, signal) => {
      started.delete(child);
      if (!stopping) {
        reject(new Error(`${name} exited (code ${code}, signal ${signal}):\n${lines.slice(-15).join('\n')}`));
      }
    });
    child.once('error', (error) => reject(new Error(`${name} could not be started: ${error.message}`)));
  });
  exited.catch(() => undefined); // observed by whoever awaits it
  if (child.pid === undefined) throw new Error(`${name} could not be started`);
  return {
    name,
    child,
    pid: child.pid,
    output: () => lines.join('\n'),
    exited,
    stop: () => {
      stopping = true;
      return stopChild(child);
    },
  };
}

/**
 * How long a stopped process may take to exit before it is killed: Switchyard finishes its
 * settlements and, under the profiler, writes a profile of tens of MB (a PostgreSQL run's took
 * longer than 5 s, and SIGKILL left none).
 */
const STOP_GRACE_MS = 20_000;

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  if (child.pid !== undefined) stoppedChildrenCpuMs += readCpuMs(child.pid);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      started.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Ends every process this run started (normal end, failure, Ctrl-C). */
export async function stopAll(): Promise<void> {
  await Promise.all([...started].map((child) => stopChild(child)));
}

/** A free TCP port on 127.0.0.1 (asked from the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` until it answers (any HTTP status below 500), failing fast when the process exits
 * and loudly after `timeoutMs`.
 */
export async function waitForHttp(process_: SpawnedProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const response = await Promise.race([
        fetch(url, { signal: AbortSignal.timeout(2_000) }),
        process_.exited,
      ]);
      await response.arrayBuffer();
      if (response.status < 500) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      if (process_.child.exitCode !== null || process_.child.signalCode !== null) throw error;
      lastError = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${process_.name} did not answer ${url} within ${timeoutMs} ms (${lastError}):\n${process_.output()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resident set size of a process in bytes (0 once it is gone). */
export function readRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU time of a process (all its threads), in milliseconds. */
export function readCpuMs(pid: number): number {
  return readStatCpuMs(`/proc/${pid}/stat`);
}

/** User + system CPU time of a process's main thread alone (its event loop), in milliseconds. */
export function readMainThreadCpuMs(pid: number): number {
  return readStatCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

/** System (kernel) CPU time of a process (all its threads), in milliseconds. */
export function readSystemCpuMs(pid: number): number {
  return readStatCpuSplitMs(`/proc/${pid}/stat`).system;
}

function readStatCpuMs(path: string): number {
  const { user, system } = readStatCpuSplitMs(path);
  return user + system;
}

function readStatCpuSplitMs(path: string): { user: number; system: number } {
  try {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return {
      user: (Number(fields[11]) * 1000) / CLOCK_TICKS_PER_SECOND,
      system: (Number(fields[12]) * 1000) / CLOCK_TICKS_PER_SECOND,
    };
  } catch {
    return { user: 0, system: 0 };
  }
}

/** Samples a process's RSS every `intervalMs` until stopped; reports the peak and the last value. */
export function sampleRss(pid: number, intervalMs = 200) {
  let peak = readRss(pid);
  let last = peak;
  const samples: { at: number; rss: number }[] = [{ at: Date.now(), rss: peak }];
  const timer = setInterval(() => {
    last = readRss(pid);
    samples.push({ at: Date.now(), rss: last });
    if (last > peak) peak = last;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      last = readRss(pid);
      if (last > peak) peak = last;
      return { peak, last, samples };
    },
  };
}

/** Busy CPU time of the whole machine (all cores, every process), milliseconds. */
export function readMachineBusyMs(): number {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [user, nice, system, _idle, _iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (
      (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 1000) /
      CLOCK_TICKS_PER_SECOND
    );
  } catch {
    return 0;
  }
}

/** CPU time of this runner and every child it started (running or stopped), milliseconds. */
export function readOwnCpuMs(): number {
  const self = process.cpuUsage();
  let total = (self.user + self.system) / 1000 + stoppedChildrenCpuMs;
  for (const child of started) if (child.pid !== undefined) total += readCpuMs(child.pid);
  return total;
}

/**
 * Measures how much CPU other processes on the machine (not started by this run) used between
 * `start()` and `stop()`, as a percentage of the whole machine: a busy machine skews every number.
 */
export function backgroundCpu(cores: number) {
  const machine = readMachineBusyMs();
  const own = readOwnCpuMs();
  const at = performance.now();
  return {
    stop(): number {
      const elapsed = performance.now() - at;
      const others = readMachineBusyMs() - machine - (readOwnCpuMs() - own);
      return elapsed > 0 ? Math.max(0, (others * 100) / (elapsed * cores)) : 0;
    },
  };
}
