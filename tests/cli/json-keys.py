#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Hold every key mlxcli prints in JSON to the registry in mlxcli-json(7).

The registry is the KEYS section of man/mlxcli-json.7: each entry is
    .TP / .B NAME / TYPE[, or null]: meaning
so the page people read and the list this test checks are one text.  TYPE
is string, integer, number, boolean, object, scalar (any of the first
four, or an array of them: a setting's value in its own type), array or "array of" one of them
(an empty array fits any; a null element is an unknown value).

The read commands are derived from the command tables (mlxcli __complete,
walked to the leaves): every leaf must be either run here (READ, with the
arguments it needs) or named in WRITE with why it is not; a new command
that is in neither list fails the test, so it cannot be missed silently.

Usage: json-keys.py MLXCLI MAN_PAGE [--collect]
  --collect prints every key path with its types instead of checking.
"""
import json, os, re, subprocess, sys, tempfile, shutil

MLXCLI, MAN = sys.argv[1], sys.argv[2]
COLLECT = '--collect' in sys.argv
SAMPLES = ['cx5-ofed', 'cx6dx-upstream']

# Leaves that change something (or start a session): never run here.
WRITE = {
    'shell': 'interactive', 'help': 'prints help text, no JSON',
    'snapshot': 'writes a capture: run once below into a scratch directory',
    'dump-me-now': 'makes an incident: run once below, then listed',
    'dbg dump-me-now': 'makes an incident', 'dbg mstdump': 'writes a dump file',
    'dbg restart': 'changes a device', 'dbg sw-reset': 'changes a device',
    'sample reset': 'discards the working copy', 'modify tc-bw': 'changes a device',
    'sriov set': 'changes a device', 'sriov vf': 'changes a device',
    'sriov eswitch': 'changes a device', 'apply': 'changes a device',
    'qosconfig dcqcn set': 'changes a device', 'qosconfig dcqcn enable': 'changes a device',
    'qosconfig dcqcn disable': 'changes a device', 'qosconfig dcqcn restore': 'changes a device',
    'qosconfig default-untagged-priority set': 'changes a device',
    'qosconfig trust': 'changes a device', 'qosconfig dscp2prio': 'changes a device',
    'qosconfig pfc': 'changes a device', 'qosconfig ets': 'changes a device',
    'qosconfig tc-bw': 'changes a device', 'qosconfig buffer': 'changes a device',
    'qosconfig dcbx': 'changes a device',
    'qosconfig default-untagged-priority get': 'not supported by mlx5 (exit 4, no JSON)',
    'params set': 'changes a device', 'params reset': 'changes a device',
    'modify driverparams': 'changes a device',
    # issue 27
    'link set': 'changes a device', 'health set': 'changes a device',
    'health recover': 'changes a device', 'health clear': 'changes a device',
    'health dump': 'takes a dump when the reporter holds none (the samples hold none)',
    'health diagnose': "the kernel's own tree (fmsg): its names are the driver's, not the registry's",
    'fw flash': 'changes a device', 'fw activate': 'changes a device',
    'vlan add': 'changes a device', 'vlan del': 'changes a device',
    'ipoib add': 'changes a device (the samples have no IPoIB port: tests/cli/netdevs.sh)',
    'ipoib del': 'changes a device (the samples have no IPoIB port: tests/cli/netdevs.sh)',
    'top': 'a terminal view, no JSON (counters watch -j has its rates)',
}
# Each read leaf with the argument lists to run it with (-j is added).
READ = {
    'devices': [[]], 'ports': [[]], 'fw': [[]], 'fw query': [[]], 'pci': [[]],
    'pci show': [[]],
    'show devices': [[]], 'show ports': [[]], 'show qos': [[], ['--check']],
    'show perfstats': [[]],
    'counters watch': [['-c', '1', '-i', '0.1'], ['-c', '1', '-i', '0.1', '--group', 'phy', '--all']],
    'counters': [[], ['--format', 'prometheus'], ['--describe'], ['--catalogue']],
    'counters show': [[]], 'counters cc': [[], ['--describe']], 'counters prio': [[]],
    'counters errors': [[], ['--describe']],
    'sriov show': [[]], 'state': [[]], 'recover': [[], ['--dry-run']],
    'diff': [['SAMPLES/cx5-ofed', 'SAMPLES/cx6dx-upstream'],
             ['--match', 'position', 'SAMPLES/cx5-ofed', 'SAMPLES/cx6dx-upstream']],
    'qosconfig show': [[]],
    'qosconfig dcqcn get': [[]], 'qosconfig dcqcn defaults': [[]],
    'qosconfig dcqcn describe': [[]],
    'dbg get-state': [[]], 'dbg pddrinfo': [[]], 'dbg cmd-stats': [[]],
    'dump-me-now list': [[]], 'dump-me-now show': [['LAST']],
    'dump-me-now verify': [[], ['LAST']],
    'sample list': [[]],
    'monitor': [[], ['--catalogue']],
    'module': [[], ['--raw']], 'link': [[]], 'link show': [[]], 'show selfhealing port': [[]],
    'params': [[], ['--diff'], ['--source', 'devlink,module']], 'params show': [['rx_ring', 'mtu']],
    'params info': [[]], 'params regkeys': [['--dynamic']], 'params features': [[]],
    'show regkeys config': [[]], 'show regkeys diff': [[]], 'show regkeys info': [[]],
    'show driverparams': [['enp94s0f0np0']],
    # issue 24: rdma
    'rdma': [[]], 'rdma show': [[]], 'rdma qp': [[], ['--errors']], 'rdma cm-id': [[]],
    'rdma cq': [[]], 'rdma mr': [[]], 'rdma pd': [[]], 'rdma ctx': [[]], 'rdma srq': [[]],
    'rdma gids': [[]], 'rdma stats': [[]], 'show nd connections': [[], ['-e']],
    'dbg resources': [[]],
    # issue 27: the views the seeds have
    'vxlan': [[]], 'show vxlan': [[]], 'packet-filter': [[]], 'show packet-filter': [[]],
    'irq': [[], ['--table']], 'dropless': [[]],
    'ipoib': [[]], 'ipoib show': [[]], 'ipoib pkeys': [[]], 'ipoib endpoints': [[]],
    'dbg pkeys': [[]], 'dbg ipoib-ep': [[]],
    'vlan': [[]], 'vlan show': [[]],
    'health': [[]], 'health show': [[]],   # issue 27
}
# Each write command that has --dry-run, with its arguments: it runs here
# as `CMD -d DEV ARGS --dry-run -j` (NETDEV: the first port's netdev), so
# the keys of what a change prints are held to the registry too.
DRY = {
    'qosconfig dcqcn set': ['rpg_ai_rate', '6'], 'qosconfig dcqcn enable': ['2'],
    'qosconfig dcqcn disable': ['3'], 'qosconfig dcqcn restore': [],
    'qosconfig trust': ['pcp'], 'qosconfig pfc': ['3'], 'qosconfig tc-bw': ['3', '1000'],
    'qosconfig ets': ['prio-tc', '1:1'], 'qosconfig dscp2prio': ['set', '10', '3'],
    'qosconfig buffer': ['prio-buffer', '3:1'], 'qosconfig dcbx': ['firmware'],
    'sriov vf': ['1', 'set', 'vlan', '5', 'spoofchk', 'on'], 'sriov set': ['numvfs', '2'],
    'sriov eswitch': ['switchdev'], 'modify tc-bw': ['NETDEV', '3', '1000'],
    'dbg restart': ['NETDEV'], 'dbg sw-reset': [],
    # APPLYFILE: a desired state naming the first port (apply_file below)
    'apply': ['APPLYFILE'],
    'params set': ['rx_ring=2048', 'lro=on'], 'params reset': [],
    'modify driverparams': ['NETDEV', 'rx_ring=2048'],
    # issue 27
    'link set': ['pause', 'rx', 'off', 'speed', '25000', 'fec', 'rs'],
    'health set': ['tx', 'grace_period', '1000', 'auto_dump', 'off'],
    'health recover': ['tx'], 'health clear': ['fw_fatal'], 'fw activate': [],
    'vlan add': ['200', 'name', 'v200', 'egress-qos-map', '3:3'], 'vlan del': ['100'],
}
# (fw flash: the samples hold no MFA2 image, exit 2; tests/cli/lifecycle.sh)
# Writes whose --dry-run still exits non-zero, and why (nothing to check).
DRY_FAILS = {
    'qosconfig default-untagged-priority set':
        'mlx5 has no interface to the port default priority: exit 4, dry run or not',
    'fw flash': 'needs an MFA2 image: exit 2 on the samples, dry run or not',
    'ipoib add': 'the samples have no IPoIB port: exit 4 (tests/cli/netdevs.sh runs it on the '
                 'IPoIB overlay)',
    'ipoib del': 'the samples have no IPoIB port: exit 4 (tests/cli/netdevs.sh)',
}
# Registry keys only a live device prints (a captured sample refuses the
# command before its record): what each is, and the test that sees it.
LIVE_ONLY = {
    k: 'fw flash on a live device: tests/vm/guest/nsim-lifecycle.sh (the kernel lab)'
    for k in ('copied', 'file', 'image', 'last_status', 'loaded_as', 'psids', 'status_count')
}

GROUPS = set()
# What is left to bring to the registry's vocabulary: (key, type seen) for a
# key that has another type somewhere, (key, None) for a key not yet renamed.
# Each entry says why it is still here; an entry that no longer matches any
# output is reported, so the list only shrinks.
EXCEPTIONS = {
}


def mlx(args, env=None):
    p = subprocess.run([MLXCLI] + args, capture_output=True, text=True, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr


def leaves(prefix):
    rc, out, _ = mlx(['__complete'] + prefix + [''])
    words = [w for w in out.split() if not w.startswith('-')]
    res = []
    for w in words:
        path = ' '.join(prefix + [w])
        # below a command the words are its arguments, not commands
        # (a top-level command may be both a command and a group: fw, pci)
        sub = leaves(prefix + [w]) if (not prefix and w != 'help') or \
            (path not in READ and path not in WRITE) else []
        if sub:
            GROUPS.add(path)
        res.append(path)
        res += sub
    return res


def jtype(v):
    if v is None: return 'null'
    if isinstance(v, bool): return 'boolean'
    if isinstance(v, int): return 'integer'
    if isinstance(v, float): return 'number'
    if isinstance(v, str): return 'string'
    if isinstance(v, list):
        # an array says what it holds: "array of boolean" (null elements
        # are unknown values and fit any element type)
        el = sorted(set(jtype(x) for x in v if x is not None))
        el = ['object' if e.startswith('array') else e for e in el]
        return 'array of ' + '|'.join(sorted(set(el))) if el else 'array'
    return 'object'


# show qos --check's evidence objects carry keys named in lib's lint rules
# (ev(f, "key", MLX_EV_TYPE, ...)); the sample hosts raise only some
# findings, so every key the rules can give is read from their source.
EV_TYPES = {'INT': 'integer', 'PRIOS': 'array of integer', 'STR': 'string',
            'BOOL': 'boolean', 'NULL': 'null'}
EV_HELPERS = {'str': ('string',), 'tri': ('boolean', 'null')}


def evidence_keys(seen):
    lib = os.path.join(os.path.dirname(os.path.abspath(MAN)), '..', 'lib', 'qos')
    n = 0
    for f in sorted(os.listdir(lib)):
        if f.startswith('qos-lint') and f.endswith('.c'):
            src = open(os.path.join(lib, f)).read()
            for k, t in re.findall(r'\bev\(\w+,\s*"([a-z_0-9]+)",\s*MLX_EV_([A-Z]+)', src):
                seen.setdefault(k, {}).setdefault(EV_TYPES[t], set()).add(f'lib/qos/{f} evidence')
                n += 1
            # the typed wrappers: ev_str (a string: its callers pass
            # names, never NULL), ev_tri (a boolean, or null for unknown)
            for h, k in re.findall(r'\bev_([a-z]+)\(\w+,\s*"([a-z_0-9]+)"', src):
                if h not in EV_HELPERS:
                    PROBLEMS.append(f'lib/qos/{f}: evidence helper ev_{h} is unknown to {sys.argv[0]}')
                    continue
                for t in EV_HELPERS[h]:
                    seen.setdefault(k, {}).setdefault(t, set()).add(f'lib/qos/{f} evidence')
                n += 1
    return n


UNITS_SEEN = {}
KNOBS_SEEN = {}
NV_OWN = set()
PROBLEMS = []
# unit values the registry does not list yet, each with why
UNIT_EXCEPTIONS = {
}


def walk(v, path, seen, where, names_only=False):
    if isinstance(v, dict):
        if isinstance(v.get('unit'), str):
            UNITS_SEEN.setdefault(v['unit'], where + ' ' + path)
        for k, x in v.items():
            # the keys of "labels" (Prometheus labels, string values) and of
            # "sources" (where each sibling key was read) name other keys:
            # they must be registered, their values are strings by nature
            t = 'label' if names_only else jtype(x)
            seen.setdefault(k, {}).setdefault(t, set()).add(where + ' ' + path + '.' + k)
            if k in ('labels', 'sources') and isinstance(x, dict):
                walk(x, path + '.' + k, seen, where, True)
                continue
            # counters (schema 3): per source (a registered key) the values
            # keyed by counter name (data, the driver's names: not keys of
            # the registry), each an integer, a decimal string above
            # 2^63-1, or null; the catalogue: per source, per name, an
            # entry whose keys are the registry's
            if k in ('counters', 'catalogue') and isinstance(x, dict):
                for src, byname in x.items():
                    seen.setdefault(src, {}).setdefault('label', set()).add(where + ' ' + path + '.' + k + '.' + src)
                    if not isinstance(byname, dict):
                        PROBLEMS.append(f'{where} {path}.{k}.{src}: not an object of names')
                        continue
                    for n, y in byname.items():
                        if k == 'catalogue':
                            walk(y, path + '.catalogue.' + src + '.' + n, seen, where)
                        elif jtype(y) not in ('integer', 'string', 'null'):
                            PROBLEMS.append(f'{where} {path}.counters.{src}.{n}: a value is {jtype(y)}')
                continue
            # state's "params": a port's knobs, name -> value; the names are
            # data (the catalogue's, `params info`), not keys of the
            # registry; each value is a scalar (a knob's own type) or null
            if k == 'params' and isinstance(x, dict):
                for n, y in x.items():
                    # a firmware NV setting the catalogue lacks (issue 27):
                    # params_applies beside names it, as the device listed it
                    if isinstance(v.get('params_applies'), dict) and n in v['params_applies']:
                        NV_OWN.add(n)
                    KNOBS_SEEN.setdefault(n, set()).add((jtype(y), where + ' ' + path + '.params.' + n))
                continue
            # state's "params_applies" (issue 27): knob name -> when it
            # takes effect; the names are data as in "params", the values
            # the "applies" words
            if k == 'params_applies' and isinstance(x, dict):
                for n, y in x.items():
                    KNOBS_SEEN.setdefault(n, set()).add(('string', where + ' ' + path + '.params_applies.' + n))
                    if y not in ('runtime', 'driver-reload', 'reboot', 'firmware-reset'):
                        PROBLEMS.append(f'{where} {path}.params_applies.{n}: {y!r} is no "applies" word')
                continue
            walk(x, path + '.' + k, seen, where)
    elif isinstance(v, list):
        for x in v:
            walk(x, path + '[]', seen, where)


def registry():
    reg = {}
    lines = open(MAN).read().split('\n')
    for i, line in enumerate(lines[:-1]):
        m = re.match(r'^\.B ([a-z0-9_]+)$', line)
        one = r'(?:string|integer|number|boolean|object|scalar|array' \
              r'(?: of (?:string|integer|number|boolean|object))?)'
        # "TYPE or TYPE": one key, two shapes in two commands (params)
        t = re.match(r'^(' + one + r'(?: or ' + one + r')?)(, or null)?:', lines[i + 1])
        if m and t and i > 0 and lines[i - 1] == '.TP':
            reg[m.group(1)] = t.group(1).replace(' or ', '|') + ('?' if t.group(2) else '')
    return reg


def prom_labels(text, seen, where):
    for line in text.splitlines():
        m = re.match(r'^[a-z_:0-9]+\{(.*)\}', line)
        if m:
            for k in re.findall(r'([a-z_0-9]+)="', m.group(1)):
                seen.setdefault(k, {}).setdefault('label', set()).add(where + ' label')


def apply_file(d, netdev):
    """A desired-state file for `apply --dry-run`: a change of QoS and DCQCN on @netdev."""
    path = os.path.join(d, 'apply-' + netdev + '.json')
    with open(path, 'w') as f:
        json.dump({'ports': [{'netdev': netdev, 'pfc': {'enabled_priorities': [3, 5]},
                              'dcqcn': {'rp': {'parameters': [{'name': 'rpg_ai_rate',
                                                               'value': 6}]}}}]}, f)
    return path


def main():
    problems = []
    cmds = leaves([])
    for c in cmds:
        if c not in WRITE and c not in READ and c not in GROUPS:
            problems.append(f'command "{c}" is neither checked (READ) nor excused (WRITE) in {sys.argv[0]}')
    for c in WRITE:
        if c in cmds and c not in DRY and c not in DRY_FAILS:
            rc, out, _ = mlx(c.split() + ['--help'])
            if '--dry-run' in out:
                problems.append(f'"{c}" has --dry-run: run it in DRY in {sys.argv[0]}')
    for c in list(READ) + list(WRITE) + list(DRY):
        if c not in cmds:
            problems.append(f'"{c}" is listed here but the command tables have no such command')
    seen = {}
    dry_done = set()
    state = tempfile.mkdtemp()
    # Incidents go to a dump root of the test's own, never to the machine's
    # /var/lib/mlxcli (which the package test wants absent).
    conf = os.path.join(state, 'mlxcli.conf')
    with open(conf, 'w') as f:
        f.write(f'dmn_dir = {os.path.join(state, "dmn")}\n')
    env = dict(os.environ, MLXCLI_STATE_DIR=state, MLXCLI_CONFIG=conf)
    try:
        for s in SAMPLES:
            # one incident on the sample working copy, so the listing has a
            # row; what making it prints is checked too, and a snapshot's
            for c, argv in (('dump-me-now', ['dump-me-now', '-d', mlx_first(s, env)]),
                            ('snapshot', ['snapshot', os.path.join(state, 'snap-' + s)])):
                rc, out, err = mlx([f'--sample={s}'] + argv + ['-j'], env)
                if rc != 0 or not out.strip():
                    problems.append(f'[{s}] {" ".join(argv)} -j: exit {rc}: {err.strip()}')
                else:
                    walk(json.loads(out), '', seen, f'[{s}] {c}')
            # the incident's RDMA items (issue 24) and the debugfs lists
            # (issue 27), which only an incident holds
            for dp, _, fs in os.walk(os.path.join(state, 'dmn')):
                for fn in sorted(fs):
                    if (fn.startswith('rdma-') or fn == 'mlx5-resources.json') and fn.endswith('.json'):
                        with open(os.path.join(dp, fn)) as f:
                            walk(json.load(f), '', seen, f'[{s}] incident {fn}')
            for c, arglists in READ.items():
                for args in arglists:
                    if args == ['LAST']:
                        rc, out, _ = mlx([f'--sample={s}', 'dump-me-now', 'list', '-j'], env)
                        try:
                            inc = json.loads(out)
                            first = [v for v in inc.values() if isinstance(v, list) and v][0][0]
                            name = [v for k, v in first.items() if isinstance(v, str) and k in ('incident', 'name', 'dir', 'path', 'folder')]
                            args = [os.path.basename(name[0])] if name else []
                        except Exception:
                            args = []
                    # SAMPLES: the sample hosts' directory (diff compares two)
                    args = [a.replace('SAMPLES', os.environ.get('MLXCLI_SAMPLES_DIR') or os.path.join(
                        os.path.dirname(os.path.abspath(MAN)), '..', 'tests', 'data', 'samples'))
                        for a in args]
                    where = f'[{s}] {c} {" ".join(args)}'.strip()
                    if args[:2] == ['--format', 'prometheus']:
                        rc, out, err = mlx([f'--sample={s}'] + c.split() + args, env)
                        prom_labels(out, seen, where)
                        continue
                    rc, out, err = mlx([f'--sample={s}'] + c.split() + args + ['-j'], env)
                    if not out.strip():
                        if rc == 0:
                            problems.append(f'{where}: no JSON on stdout')
                        else:
                            print(f'# {where}: exit {rc}, no JSON: {err.strip().splitlines()[0] if err.strip() else ""}')
                        continue
                    try:
                        docs = [json.loads(l) for l in out.splitlines() if l.strip()] if c in ('counters watch', 'monitor') else [json.loads(out)]
                    except ValueError as e:
                        problems.append(f'{where}: not JSON: {e}')
                        continue
                    for d in docs:
                        walk(d, '', seen, where)
            dev = mlx_first(s, env)
            rc, out, _ = mlx([f'--sample={s}', 'ports', '-j'], env)
            netdev = json.loads(out)['ports'][0]['netdev']
            for c, args in DRY.items():
                args = [netdev if a == 'NETDEV' else apply_file(state, netdev) if a == 'APPLYFILE'
                        else a for a in args]
                # a command that names its port itself takes no -d
                argv = c.split() + (args if 'NETDEV' in DRY[c] else ['-d', dev] + args)
                where = f'[{s}] {" ".join(argv)} --dry-run'
                rc, out, err = mlx([f'--sample={s}'] + argv + ['--dry-run', '-j'], env)
                if rc in (2, 3, 4) and not out.strip():
                    # what this sample cannot do (no VFs; upstream has no
                    # per-priority enable): the other sample must do it
                    print(f'# {where}: exit {rc}, no JSON: {err.strip().splitlines()[0]}')
                    continue
                if rc != 0 or not out.strip():
                    problems.append(f'{where}: exit {rc}: {err.strip()}')
                    continue
                dry_done.add(c)
                walk(json.loads(out), '', seen, where)
        monitor_replay(seen, env, state, problems)
        ipoib_replay(seen, env, state, problems)
        nvparams_replay(seen, env, state, problems)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    for c in sorted(set(DRY) - dry_done):
        problems.append(f'"{c} --dry-run -j" printed JSON on no sample host')
    if evidence_keys(seen) < 10:
        problems.append('found fewer than 10 lint evidence keys in lib/qos/qos-lint*.c: has ev() changed?')
    if COLLECT:
        for k in sorted(seen):
            for t, w in sorted(seen[k].items()):
                print(k, t, len(w), sorted(w)[0])
        return 0
    reg = registry()
    bad = 0
    for k in sorted(seen):
        if k not in reg:
            if (k, None) not in EXCEPTIONS:
                bad += 1
                problems.append(f'key "{k}" is not in mlxcli-json(7), seen in {sorted(sum((list(x) for x in seen[k].values()), []))[0]}')
            continue
        want = reg[k]
        nullable = want.endswith('?')
        want = want.rstrip('?')
        for t, w in seen[k].items():
            if (k, t) in EXCEPTIONS:
                continue
            if t == 'label' or (t == 'null' and nullable) or any(
                    t == want or
                    (want == 'scalar' and (t in ('string', 'integer', 'number', 'boolean') or t.startswith('array'))) or
                    (t == 'array' and want.startswith('array')) or (t == 'integer' and want == 'number')
                    for want in want.split('|')):
                continue
            bad += 1
            problems.append(f'key "{k}" is {t} in {sorted(w)[0]}, mlxcli-json(7) says {reg[k]}')
    txt = open(MAN).read()
    units = set(txt.split('.\\" units-begin\n.nf\n')[1].split('\n.fi\n')[0].split('\n'))
    for u, w in sorted(UNITS_SEEN.items()):
        if u not in units and u not in UNIT_EXCEPTIONS:
            problems.append(f'unit "{u}" ({w}) is not in mlxcli-json(7) UNITS: one spelling per unit')
    for u in UNIT_EXCEPTIONS:
        if u not in UNITS_SEEN:
            problems.append(f'known unit exception "{u}" no longer happens: remove it')
    for k in sorted(set(LIVE_ONLY) & set(seen)):
        problems.append(f'"{k}" is printed on the samples now: remove it from LIVE_ONLY')
    for k in sorted(set(reg) - set(seen) - set(LIVE_ONLY)):
        problems.append(f'mlxcli-json(7) lists "{k}" but no command printed it: remove it, or run the command that prints it here')
    for (k, t), why in EXCEPTIONS.items():
        if k not in seen or (t is not None and t not in seen[k]):
            problems.append(f'known exception ({k}, {t}) no longer happens: remove it ({why})')
    rc, out, _ = mlx(['params', 'info', '-j'])
    knobs = {k['name'] for k in json.loads(out)['knobs']} if rc == 0 else set()
    if not knobs:
        problems.append('params info -j lists no knob')
    for n, ts in sorted(KNOBS_SEEN.items()):
        for t, w in sorted(ts):
            if n not in knobs and n not in NV_OWN:
                problems.append(f'"{n}" in {w} is no knob of the catalogue (params info)')
            elif t not in ('string', 'integer', 'boolean', 'null'):
                problems.append(f'knob "{n}" is {t} in {w}: a knob\'s value is a scalar')
    problems += PROBLEMS
    for p in problems:
        print('FAIL:', p)
    print(f'# {len(seen)} keys seen, {len(reg)} in the registry, {bad} keys fail')
    return 1 if problems else 0


# A capture with recorded events for `--sysroot DIR monitor` (issue 16): a
# copy of a sample host plus dev/kmsg (kernel records, one line per kind that
# has fields, written in the kernel's formats that lib/monitor/catalogue.c
# cites, with a sequence gap) and monitor/{rtnl,devlink}.nl (notifications
# built from the uapi numbers: RTM_NEWLINK 16, IFLA_CARRIER 33,
# IFLA_CARRIER_CHANGES 35; DEVLINK_CMD_HEALTH_REPORTER_RECOVER 54, reporter
# attributes 114-118).
MONITOR_LINES = [
    'mlx5_core 0000:08:00.0 eth1: Error cqe on cqn 0x817, ci 0x8, qn 0x1dbb, opcode 0xd, syndrome 0x1, vendor syndrome 0x68',
    'mlx5_core 0000:08:00.0 eth1: ERR CQE on SQ: 0x1dbb',
    'mlx5_core 0000:08:00.0 eth1: ERR CQE on RQ: 0x1133',
    'mlx5_core 0000:08:00.0 eth1: TX timeout on queue: 0, SQ: 0xe31ee, CQ: 0x484, SQ Cons: 0x0 SQ Prod: 0x7, usecs since last trans: 18439000',
    'mlx5_core 0000:08:00.0 eth1: NETDEV WATCHDOG: CPU: 3: transmit queue 0 timed out 5120 ms',
    'mlx5_core 0000:08:00.0 eth1: EQ 0x7: Cons = 0x3ded47a, irqn = 0x197',
    'mlx5_core 0000:08:00.0 eth1: Recovered 3 eqes on EQ 0x7',
    'mlx5_core 0000:08:00.0: wait_func_handle_exec_timeout:1159:(pid 7): cmd[0]: ACCESS_REG(0x805) No done completion',
    'mlx5_core 0000:08:00.0: mlx5_cmd_out_err:838:(pid 7): CREATE_MKEY(0x200) op_mod(0x0) failed, status bad parameter(0x3), syndrome (0x6c6f09), err(-22)',
    'mlx5_core 0000:08:00.0: poll_health:478:(pid 0): Fatal error 1 detected',
    'mlx5_core 0000:08:00.0: print_health_info:421:(pid 0): synd 0x10: High temperature',
    'mlx5_core 0000:08:00.0: print_health_info:422:(pid 0): ext_synd 0x0000',
    'mlx5_core 0000:08:00.0: temp_warn:170:(pid 0): High temperature on sensors with bit set 0 1',
    'mlx5_core 0000:08:00.0: Port module event: module 0, Cable plugged',
    'mlx5_core 0000:08:00.0: mlx5_pcie_event:294:(pid 5): PCIe slot advertised sufficient power (75W).',
    'mlx5_core 0000:08:00.0: 63.008 Gb/s available PCIe bandwidth (8.0 GT/s PCIe x8 link)',
    'mlx5_core 0000:08:00.0: mlx5_handle_bad_state:274:(pid 9): NIC mode: 7',
    'mlx5_core 0000:08:00.0: NIC IFC still 7 after 1000ms.',
    'mlx5_core 0000:08:00.0: health_care:357:(pid 9): Scheduling recovery work with 60000ms delay',
    'mlx5_core 0000:08:00.0: probe_one:1484:(pid 957): mlx5_init_one failed with error code -17',
    'mlx5_core 0000:08:00.0: cq_err_event_notifier:517:(pid 4374): CQ error on CQN 0x407, syndrome 0x1',
    'infiniband mlx5_0: destroy_qp_common:2367:(pid 73): mlx5_ib: modify QP 0x000724 to RESET failed',
    'infiniband mlx5_0: create_qp:3047:(pid 29714): Create QP type 2 failed',
    'infiniband mlx5_0: mlx5_handle_error_cqe:333:(pid 0): WC error: 10, message: remote access error',
    'mlx5_0/1: QP 137 error: unrecognized status (0x41 0x0 0x0)',
    'infiniband mlx5_0: add_roce_gid GID add failed port=1 index=7',
    'infiniband mlx5_0: Couldn\'t open port 1 for agents',
    'infiniband mlx5_0: delay_drop_handler:4562:(pid 1187): Failed to set delay drop, timeout=100000',
]

def nla(t, payload):
    import struct
    b = struct.pack('<HH', 4 + len(payload), t) + payload
    return b + b'\0' * (-len(b) % 4)

def nlmsg(t, fixed, attrs):
    import struct
    body = fixed + b''.join(attrs)
    return struct.pack('<IHHII', 16 + len(body), t, 0, 0, 0) + body

def monitor_capture(sample_dir, cap):
    import struct
    shutil.copytree(sample_dir, cap, symlinks=True)
    os.makedirs(os.path.join(cap, 'dev'), exist_ok=True)
    os.makedirs(os.path.join(cap, 'monitor'), exist_ok=True)
    with open(os.path.join(cap, 'dev', 'kmsg'), 'w') as f:
        for i, l in enumerate(MONITOR_LINES):
            seq = 100 + i + (5 if i > 3 else 0)      # 5 records lost after the fourth
            f.write(f'3,{seq},{1000 * (i + 1)},-;{l}\n SUBSYSTEM=pci\n DEVICE=+pci:0000:08:00.0\n')
    link = lambda flags, carrier, changes, mtu=1500, master=b'': nlmsg(16, struct.pack('<BBHiII', 0, 0, 1, 5, flags, 0), [
        nla(3, b'veth0\0'), nla(33, bytes([carrier])), nla(35, struct.pack('<I', changes)),
        nla(4, struct.pack('<I', mtu))] + ([nla(10, master)] if master else []))
    # RTNLGRP_DCB: RTM_SETDCB 79, struct dcbmsg cmd DCB_CMD_IEEE_SET 20,
    # DCB_ATTR_IFNAME 1, DCB_ATTR_IEEE 13 { DCB_ATTR_IEEE_PFC 2: ieee_pfc }
    pfc = struct.pack('<BBBxHxx', 8, 0x08, 0, 0) + bytes(128)     # struct ieee_pfc, 136 bytes
    dcb = nlmsg(79, struct.pack('<BBH', 0, 20, 0), [nla(1, b'enp94s0f0np0\0'), nla(13 | 0x8000, nla(2, pfc))])
    with open(os.path.join(cap, 'monitor', 'rtnl.nl'), 'wb') as f:
        f.write(link(0x10001, 1, 1) + link(0, 0, 2, 9000, struct.pack('<I', 7)) + dcb)
    rep = nla(114 | 0x8000, nla(115, b'tx\0') + nla(116, b'\1') + nla(117, struct.pack('<Q', 3)) +
              nla(118, struct.pack('<Q', 2)))
    with open(os.path.join(cap, 'monitor', 'devlink.nl'), 'wb') as f:
        f.write(nlmsg(0x14, struct.pack('<BBH', 54, 1, 0),
                      [nla(1, b'pci\0'), nla(2, b'0000:08:00.0\0'), rep]))

def monitor_replay(seen, env, state, problems):
    samples = os.environ.get('MLXCLI_SAMPLES_DIR', '')
    cap = os.path.join(state, 'monitor-capture')
    monitor_capture(os.path.join(samples, 'cx5-ofed'), cap)
    rc, out, err = mlx(['--sysroot', cap, '-j', 'monitor', '--any-netdev'], env)
    docs = [json.loads(l) for l in out.splitlines() if l.strip()]
    if rc != 0 or len(docs) < len(MONITOR_LINES) + 4:
        problems.append(f'monitor replay: exit {rc}, {len(docs)} records: {err.strip()}')
    if not any(d.get('kind') == 'qos_changed' for d in docs):
        problems.append('monitor replay: the recorded RTNLGRP_DCB notification is no qos_changed event')
    for d in docs:
        walk(d, '', seen, '--sysroot CAPTURE monitor')
    # --dump: one record of the sample's own function, so that an incident
    # is made and its record (and the end's incident_count) are walked
    with open(os.path.join(cap, 'dev', 'kmsg'), 'a') as f:
        f.write('3,200,90000000,-;mlx5_core 0000:5e:00.0 enp94s0f0np0: ERR CQE on SQ: 0x1dbb\n'
                ' SUBSYSTEM=pci\n DEVICE=+pci:0000:5e:00.0\n')
    rc, out, err = mlx(['--sysroot', cap, '-j', 'monitor', '--dump', '--dir',
                        os.path.join(state, 'monitor-dmn')], env)
    docs = [json.loads(l) for l in out.splitlines() if l.strip()]
    if rc != 0 or not any(d.get('record') == 'incident' for d in docs):
        problems.append(f'monitor --dump replay: exit {rc}, no incident record: {err.strip()}')
    for d in docs:
        walk(d, '', seen, '--sysroot CAPTURE monitor --dump')


# The IPoIB commands (issue 27) on the IPoIB variant of cx5-ofed that
# gen/samples_views.py writes (no sample host is InfiniBand).
IPOIB_RUNS = [['ipoib'], ['ipoib', 'pkeys'], ['ipoib', 'endpoints'], ['dbg', 'pkeys', 'ib0'],
              ['dbg', 'ipoib-ep', '-m', 'ib0']]

def ipoib_replay(seen, env, state, problems):
    samples = os.environ.get('MLXCLI_SAMPLES_DIR', '')
    cap = os.path.join(state, 'ipoib-capture')
    shutil.copytree(os.path.join(samples, 'cx5-ofed'), cap, symlinks=True)
    gen = os.path.join(os.path.dirname(os.path.abspath(MAN)), '..', 'gen', 'samples_views.py')
    p = subprocess.run([sys.executable, gen, 'ipoib-overlay', cap], capture_output=True, text=True)
    if p.returncode != 0:
        problems.append(f'ipoib overlay: {p.stderr.strip()}')
        return
    for argv in IPOIB_RUNS:
        rc, out, err = mlx(['--sysroot', cap, '-j'] + argv, env)
        if rc != 0 or not out.strip():
            problems.append(f'--sysroot IPOIB {" ".join(argv)}: exit {rc}: {err.strip()}')
            continue
        walk(json.loads(out), '', seen, '--sysroot IPOIB ' + ' '.join(argv))


# Firmware NV settings (devlink cmode permanent, issue 27) over a copy of
# cx6dx-upstream (gen/samples_nvparams.py: the samples' kernels predate
# them): state's params_applies, a permanent knob's change record.
NV_RUNS = [['state', '-d', 'enp59s0f0np0'], ['params', '-d', 'enp59s0f0np0'],
           ['params', 'set', '-d', 'enp59s0f0np0', 'total_vfs=4', '--dry-run']]

def nvparams_replay(seen, env, state, problems):
    samples = os.environ.get('MLXCLI_SAMPLES_DIR', '')
    cap = os.path.join(state, 'nv-capture')
    shutil.copytree(os.path.join(samples, 'cx6dx-upstream'), cap, symlinks=True)
    gen = os.path.join(os.path.dirname(os.path.abspath(MAN)), '..', 'gen', 'samples_nvparams.py')
    p = subprocess.run([sys.executable, gen, 'nv-overlay', cap], capture_output=True, text=True)
    if p.returncode != 0:
        problems.append(f'nv overlay: {p.stderr.strip()}')
        return
    for argv in NV_RUNS:
        rc, out, err = mlx(['--sysroot', cap, '-j'] + argv, env)
        if rc != 0 or not out.strip():
            problems.append(f'--sysroot NV {" ".join(argv)}: exit {rc}: {err.strip()}')
            continue
        walk(json.loads(out), '', seen, '--sysroot NV ' + ' '.join(argv))


def mlx_first(s, env):
    rc, out, _ = mlx([f'--sample={s}', 'devices', '-j'], env)
    try:
        d = json.loads(out)
        for v in d.values():
            if isinstance(v, list) and v:
                return v[0].get('pci_address')
    except Exception:
        pass
    return ''


sys.exit(main())
