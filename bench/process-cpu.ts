import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds used so far by one Chromium's processes, by kind. */
export type ProcessCpu = Record<string, number>;

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface Proc {
  pid: number;
  ppid: number;
  args: string;
  cpu: number;
}

function readProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      procs.push({ pid: Number(entry), ppid: Number(fields[1]), args, cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND });
    } catch {
      // The process ended while being read.
    }
  }
  return procs;
}

function kindOf(args: string): string {
  const type = /--type=(\S+)/.exec(args)?.[1];
  if (!type) return 'browser';
  if (type === 'renderer') return args.includes('--extension-process') ? 'extension (service worker, offscreen)' : 'page renderers';
  if (type === 'utility') return /--utility-sub-type=(\S+)/.exec(args)?.[1]?.split('.').slice(-2).join('.') ?? 'utility';
  return type;
}

/**
 * CPU seconds (user + system) of the Chromium whose `--user-data-dir` is `profile` and of all its
 * descendants, by kind of process (browser, page renderers, the extension's process, GPU, …).
 * Processes that already exited are not counted: sample before closing the browser.
 */
export function processCpu(profile: string): ProcessCpu {
  const procs = readProcs();
  const root = procs.find((p) => p.args.includes(`--user-data-dir=${profile}`) && !/--type=/.test(p.args));
  if (!root) return {};
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcessCpu = {};
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    const kind = kindOf(p.args);
    out[kind] = (out[kind] ?? 0) + p.cpu;
    stack.push(...(children.get(p.pid) ?? []));
  }
  return out;
}

/** `after - before`, kind by kind. */
export function cpuSpent(before: ProcessCpu, after: ProcessCpu): ProcessCpu {
  return Object.fromEntries(Object.entries(after).map(([kind, s]) => [kind, s - (before[kind] ?? 0)]));
}
