#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# What a udev rules file does to the network interfaces of a captured
# system (tests/cli/reapply.sh): udevadm cannot run rules on a captured
# /sys (and Debian 12's has no `udevadm verify`), so this reads the rules as
# udev(7) defines them, for the keys a rule of ours may use, and refuses any
# other key, operator or a malformed line rather than guess.
#
# usage: udev-rule.py RULES SYSROOT ACTION
# prints, per interface in SYSROOT/sys/class/net (name order), the tags and
# properties the rules add: "NAME TAGS=a,b PROP=value ...", or "NAME -".
import fnmatch
import os
import re
import sys

MATCH = {'ACTION', 'SUBSYSTEM', 'KERNEL', 'DRIVERS'}
ASSIGN = {'TAG', 'ENV'}
TOKEN = re.compile(r'\s*([A-Z]+)(?:\{([A-Za-z0-9_]+)\})?\s*(==|!=|\+=|=)\s*"([^"]*)"\s*(?:,|$)')


def parse(path):
    rules = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            pos, rule = 0, []
            while pos < len(line):
                m = TOKEN.match(line, pos)
                if not m:
                    sys.exit('%s:%d: cannot parse at: %s' % (path, n, line[pos:]))
                key, attr, op, value = m.groups()
                if key == 'ENV' and attr is None:
                    sys.exit('%s:%d: ENV needs {NAME}' % (path, n))
                is_match = op in ('==', '!=')
                if key in MATCH and not is_match or key not in MATCH | ASSIGN or \
                        key == 'TAG' and is_match:
                    sys.exit('%s:%d: %s%s is not a key this reader knows' % (path, n, key, op))
                rule.append((key, attr, op, value))
                pos = m.end()
            rules.append(rule)
    return rules


def drivers(sysroot, dev):
    # the drivers of the device and of every parent, as DRIVERS walks them
    found = []
    top = os.path.realpath(os.path.join(sysroot, 'sys', 'devices'))
    while dev.startswith(top + '/'):
        link = os.path.join(dev, 'driver')
        if os.path.islink(link):
            found.append(os.path.basename(os.readlink(link)))
        dev = os.path.dirname(dev)
    return found


def matches(pattern, values):
    return any(fnmatch.fnmatchcase(v, p) for p in pattern.split('|') for v in values)


def main():
    path, sysroot, action = sys.argv[1:4]
    rules = parse(path)
    net = os.path.join(sysroot, 'sys', 'class', 'net')
    for name in sorted(os.listdir(net)):
        dev = os.path.realpath(os.path.join(net, name))
        env = {'ACTION': action, 'SUBSYSTEM': 'net', 'KERNEL': name}
        props, tags = {}, []
        for rule in rules:
            ok = True
            for key, attr, op, value in rule:
                if op not in ('==', '!='):
                    continue
                if key == 'DRIVERS':
                    have = drivers(sysroot, dev)
                else:
                    have = [env[key]]
                if matches(value, have) != (op == '=='):
                    ok = False
            if not ok:
                continue
            for key, attr, op, value in rule:
                if key == 'TAG':
                    tags = [value] if op == '=' else tags + [value]
                elif key == 'ENV' and op in ('=', '+='):
                    old = props.get(attr, '')
                    props[attr] = (old + ' ' + value).strip() if op == '+=' else value
        out = ([('TAGS=' + ','.join(tags))] if tags else []) + \
            ['%s=%s' % kv for kv in sorted(props.items())]
        print(name, ' '.join(out) or '-')


main()
