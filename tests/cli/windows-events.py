#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Windows event numbers of the monitor's catalogue against the WinOF-2
manual itself (issue 25 item 17): E01-E40 are the messages of the
manual's §5.5 "Reported Driver Events" numbered in their order (the manual
gives no numbers; the reference notes numbered them, and swapped three).

Usage: windows-events.py MLXCLI SEED (the manual's text,
../shared/seeds/000_*.txt).  The messages are cut from §5.5: a message
starts at a line (a bullet or not) that opens like the manual's messages
do ("Mellanox ConnectX-4 VPI Adapter <X>", "The miniport", "NDIS ...",
"Reset on device", "Flow control on", "Too many IPs"); an indented line or
another line goes on the message before it.  Every catalogue kind that
names a Windows event must name the one whose text says what the kind
means: WHAT below holds, per kind, words of that message (a kind that
gets a Windows event must be added here, so a new mapping is checked
too).  Prints one line per finding; exit 1 on any."""
import json
import re
import subprocess
import sys

OPENERS = ('Mellanox ConnectX-4 VPI Adapter <X>', 'The miniport driver', 'NDIS initiates',
           'NDIS initiated', 'Reset on device', 'Flow control on the device', 'Too many IPs')

# kind -> words its Windows message must contain
WHAT = {
    'link_up': 'link is up',
    'carrier_up': 'link is up',
    'link_down': 'link is down',
    'carrier_down': 'link is down',
    'carrier_flapped': 'link is down',
    'link_down_counted': 'link is down',
    'firmware_version': 'has got',
    'probe_failed': 'QUERY HCA CAP command fails',
    'fatal_error': 'created after fatal error',
    'health_recovery': 'miniport driver initiates reset',
    'health_recovery_failed': 'reset on device',
    'cmd_timeout': 'FW command fails',
    'cmd_failed': 'FW command fails',
    'tx_timeout': 'send completion handling timeout',
    'netdev_watchdog': 'send completion handling timeout',
    'rx_timeout': 'receive completion handling timeout',
    'eq_recover': '"EQ stuck"',
    'eq_recovered': '"EQ stuck"',
    'cqe_error': '"CQE error"',
    'sq_error_cqe': '"CQE error"',
    'rq_error_cqe': '"CQE error"',
    'rdma_cqe_error': '"CQE error"',
    'cq_error': '"Error event" on CQn',
}


def messages(seed):
    text = open(seed, encoding='utf-8', errors='replace').read()
    start = text.index('\n5.5 Reported Driver Events')
    end = text.index('5.6 **State Dumping**', start)
    out = []
    for line in text[start:end].split('\n'):
        if not line.strip():
            continue
        body = line[2:] if line.startswith('- ') else line
        if not line.startswith((' ', '\t')) and body.startswith(OPENERS):
            out.append(body)
        elif out:
            out[-1] += ' ' + line.strip()
    return out


def main():
    mlxcli, seed = sys.argv[1], sys.argv[2]
    msgs = messages(seed)
    problems = []
    if len(msgs) != 40:
        problems.append(f'{len(msgs)} messages in the manual\'s §5.5, not 40: the cutting is wrong')
    cat = json.loads(subprocess.run([mlxcli, '-j', 'monitor', '--catalogue'], capture_output=True,
                                    text=True, check=True).stdout)
    mapped = 0
    for k in cat['kinds']:
        w = k.get('windows_event')
        if not w:
            continue
        mapped += 1
        m = re.fullmatch(r'E(\d\d)', w)
        if not m or not 1 <= int(m.group(1)) <= len(msgs):
            problems.append(f'{k["kind"]}: {w} is no event of the manual')
            continue
        msg = msgs[int(m.group(1)) - 1]
        if k['kind'] not in WHAT:
            problems.append(f'{k["kind"]}: {w} ("{msg[:70]}...") is not checked: add the kind to WHAT')
        elif WHAT[k['kind']].lower() not in msg.lower():
            problems.append(f'{k["kind"]}: {w} is "{msg[:90]}...", which does not say '
                            f'"{WHAT[k["kind"]]}"')
    for p in problems:
        print('FAIL:', p)
    print(f'# {len(msgs)} Windows events in the manual, {mapped} kinds mapped, {len(problems)} findings')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
