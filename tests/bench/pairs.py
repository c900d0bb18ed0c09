#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Time commands side by side, interleaved, in one run (tests/bench/run.sh).

A machine shared with other work drifts: a comparison made of two
separate series (one command's runs, then the other's) measures the drift
as much as the commands.  So each round runs every command of a group once,
in an order that alternates (A B, then B A), and the statistics come from
the same rounds.  Per command: the median, minimum and maximum of the wall
time, the median CPU time (user + system of the child, from wait4, which
other load moves much less), the peak RSS (GNU time, one run after the rounds); per pair, the ratio of
the medians of wall time and of CPU time.

Usage: pairs.py [--rounds N] [--warmup N] [--json FILE] [--ratio A/B]...
                [--ignore-exit] NAME=COMMAND...
  COMMAND runs through /bin/sh -c, its output to /dev/null.  The ratios
  reported are the --ratio ones (names of commands), else the first
  command against each other.  With --json, one JSON object per command
  and one per ratio are appended to FILE, one a line.  A command that
  exits non-zero stops the run, unless --ignore-exit (a baseline such as
  `dcb ets show dev lo`, which answers "not supported" and exits 1).
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import time


def run_once(cmd):
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    p = subprocess.Popen(['/bin/sh', '-c', cmd], stdout=devnull, stderr=devnull)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    os.close(devnull)
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, ru.ru_utime + ru.ru_stime, p.returncode


def peak_rss(cmd):
    """Peak RSS in KB from GNU time (a child of Python would carry
    Python's own high-water mark into ru_maxrss across exec)."""
    p = subprocess.run(['/usr/bin/time', '-f', '%M', '/bin/sh', '-c', cmd + ' >/dev/null 2>&1'],
                       capture_output=True, text=True)
    try:
        return int(p.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return 0


def main(argv):
    rounds, warmup, out = 15, 3, None
    cmds, ratios = [], []
    ignore_exit = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == '--ignore-exit':
            ignore_exit = True
            i += 1
            continue
        if a in ('--rounds', '--warmup', '--json', '--ratio'):
            v = argv[i + 1]
            i += 2
            if a == '--rounds':
                rounds = int(v)
            elif a == '--warmup':
                warmup = int(v)
            elif a == '--ratio':
                ratios.append(tuple(v.split('/', 1)))
            else:
                out = v
            continue
        name, _, cmd = a.partition('=')
        if not cmd:
            print(f'pairs.py: "{a}" is not NAME=COMMAND', file=sys.stderr)
            return 2
        cmds.append((name, cmd))
        i += 1
    if not cmds:
        print(__doc__, file=sys.stderr)
        return 2
    res = {n: {'wall': [], 'cpu': [], 'rss': []} for n, _ in cmds}
    for r in range(warmup + rounds):
        order = cmds if r % 2 == 0 else list(reversed(cmds))
        for name, cmd in order:
            wall, cpu, rc = run_once(cmd)
            if rc != 0 and not ignore_exit:
                print(f'pairs.py: {name}: exit {rc}: {cmd}', file=sys.stderr)
                return 1
            if r >= warmup:
                res[name]['wall'].append(wall)
                res[name]['cpu'].append(cpu)
    for name, cmd in cmds:
        res[name]['rss'].append(peak_rss(cmd))
    rows = []
    for name, cmd in cmds:
        w, c = res[name]['wall'], res[name]['cpu']
        row = {'name': name, 'command': cmd, 'rounds': rounds,
               'median_s': statistics.median(w), 'min_s': min(w), 'max_s': max(w),
               'cpu_s': statistics.median(c), 'cpu_min_s': min(c), 'cpu_max_s': max(c),
               'rss_kb': int(statistics.median(res[name]['rss']))}
        rows.append(row)
        print(f"  {name}: median {row['median_s'] * 1000:.1f} ms "
              f"({row['min_s'] * 1000:.1f}-{row['max_s'] * 1000:.1f}), "
              f"cpu {row['cpu_s'] * 1000:.1f} ms ({row['cpu_min_s'] * 1000:.1f}-"
              f"{row['cpu_max_s'] * 1000:.1f}), rss {row['rss_kb']} KB")
    byname = {r['name']: r for r in rows}
    if not ratios:
        ratios = [(rows[0]['name'], r['name']) for r in rows[1:]]
    for a, b in ratios:
        if a not in byname or b not in byname:
            print(f'pairs.py: --ratio {a}/{b}: no such command', file=sys.stderr)
            return 2
        x, y = byname[a], byname[b]
        ratio = {'name': f"{a}/{b}",
                 'ratio_median': x['median_s'] / y['median_s'],
                 'ratio_cpu': x['cpu_s'] / y['cpu_s'] if y['cpu_s'] > 0 else None,
                 'ratio_rss': x['rss_kb'] / y['rss_kb'] if y['rss_kb'] else None}
        rows.append(ratio)
        print(f"  ratio {ratio['name']}: {ratio['ratio_median']:.2f} "
              f"(cpu time {ratio['ratio_cpu'] or 0:.2f}, peak rss {ratio['ratio_rss'] or 0:.2f})")
    if out:
        with open(out, 'a') as f:
            for row in rows:
                f.write(json.dumps(row) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
