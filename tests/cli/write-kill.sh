#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# All or nothing under crashes (issue 26): SIGKILL at a random moment of a
# write, then the next write (or `mlxcli recover`), must leave the old
# state or the new one, never a mix, and nothing behind (no temporary
# file, no VF directory put aside, no journal).  Two loops on a working
# copy of cx5-ofed, each round starting from where the last one ended:
#  - apply: a file changing QoS, DCQCN, SR-IOV (numvfs 0 -> 2 and VF
#    settings) and the RDMA CM's ToS, and back (the old state as a file);
#  - sriov set numvfs 4 -> 2 -> 4 ... on one PF.
# The kill comes after a uniformly random delay within the command's own
# run time, so it lands anywhere: planning, writing, reading back, putting
# back.  Odd rounds recover with `mlxcli recover`, even rounds with a write
# that changes nothing (the pending transaction is finished first).  Every
# run that ended before the kill must have exited 0.  KILL_ROUNDS (default
# 60 per loop) sets the count.
set -u
. "$(dirname "$0")/lib.sh"
need python3 jq
[ "$MLXCLI" = "${MLXCLI_REAL:-$MLXCLI}" ] || { echo "SKIP: under a wrapper"; exit 77; }
XDG_RUNTIME_DIR=$tmp/run; export XDG_RUNTIME_DIR
mkdir -m 700 "$XDG_RUNTIME_DIR"
fresh w cx5-ofed

python3 - "$MLXCLI" "$tmp" "${KILL_ROUNDS:-60}" <<'EOF' || fail=1
import json, os, random, re, signal, subprocess, sys, time

mlx, tmp, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
w = os.path.join(tmp, "w")
run = os.path.join(tmp, "run")
random.seed(int(os.environ.get("KILL_SEED", "0")) or None)

def m(*args, check=True):
    p = subprocess.run([mlx, "--sysroot", w] + list(args), capture_output=True, text=True)
    if check and p.returncode != 0:
        print("FAIL: mlxcli %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
        sys.exit(1)
    return p

def state():
    return m("-j", "state").stdout

def leftovers():
    n = []
    for d, dirs, files in os.walk(w):
        for x in dirs + files:
            if re.search(r"^\..*\.tmp$", x) or ".removed." in x:
                n.append(os.path.join(d, x))
    for d, dirs, files in os.walk(run):
        n += [os.path.join(d, x) for x in files if "journal" in x]
    return n

def timed(args):
    t = time.monotonic()
    m(*args)
    return time.monotonic() - t

old = state()
doc = json.loads(old)
p0, p1 = doc["ports"][0], doc["ports"][1]
want = {"ports": [
    {"pci_address": p0["pci_address"], "pfc": {"enabled_priorities": [3, 4]},
     "dcqcn": {"rp": {"parameters": [{"name": "rpg_ai_rate", "value": 7}]}},
     "roce": {"default_roce_tos": 96},
     "sriov": {"vfs": [{"vf": 1, "vlan": 7}, {"vf": 3, "trusted": False}]}},
    {"pci_address": p1["pci_address"],
     "sriov": {"num_vfs": 2, "vfs": [{"vf": 1, "vlan": 5, "trusted": True}]}}]}
fwd = os.path.join(tmp, "fwd.json")
back = os.path.join(tmp, "back.json")
json.dump(want, open(fwd, "w"))
open(back, "w").write(old)
# a write that changes nothing in either state: port 1's PFC as it is
noop = ["qosconfig", "pfc", "-d", p1["netdev"],
        ",".join(str(x) for x in p1["pfc"]["enabled_priorities"]) or "none"]

def loop(name, states, cmds, dur):
    """states: the state each command leads to; cmds: their argv"""
    counts = {"old": 0, "new": 0, "mixed": 0, "leftovers": 0, "failed": 0}
    cur = 0
    for r in range(rounds):
        nxt = (cur + 1) % len(states)
        before = state()
        p = subprocess.Popen([mlx, "--sysroot", w] + cmds[nxt], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        time.sleep(random.uniform(0, dur[nxt]))
        p.send_signal(signal.SIGKILL)
        err = p.communicate()[1]
        if p.returncode not in (0, -signal.SIGKILL):
            counts["failed"] += 1
            print("FAIL: %s round %d: the write exited %d: %s" % (name, r, p.returncode, err.strip()))
        rec = m("recover", check=False) if r % 2 else m(*noop, check=False)
        if rec.returncode != 0:
            counts["failed"] += 1
            print("FAIL: %s round %d: %s exited %d: %s" % (name, r, "recover" if r % 2 else "the write",
                                                         rec.returncode, rec.stderr.strip()))
        s = state()
        left = leftovers()
        if left:
            counts["leftovers"] += 1
            print("FAIL: %s round %d: left %s" % (name, r, " ".join(os.path.relpath(x, tmp) for x in left)))
        if s == before:
            counts["old"] += 1
        elif s == states[nxt]:
            counts["new"] += 1
            cur = nxt
        else:
            counts["mixed"] += 1
            print("FAIL: %s round %d: a mix of old and new" % (name, r))
            # start again from a known state
            subprocess.run(["rm", "-rf", w])
            subprocess.run(["cp", "-a", os.path.join(os.environ["MLXCLI_SAMPLES_DIR"], "cx5-ofed"), w])
            for x in left:
                if x.startswith(run):
                    os.unlink(x)
            cur = 0
            if state() != states[0]:
                print("FAIL: the fresh copy is not the first state")
                return counts
    print("  %s: %d kills: %d old, %d new, %d mixed, %d with leftovers, %d failed runs" %
          (name, rounds, counts["old"], counts["new"], counts["mixed"], counts["leftovers"],
           counts["failed"]))
    return counts

# apply: old -> new -> old ...
d_fwd = timed(["apply", "--yes", fwd])
new = state()
d_back = timed(["apply", "--yes", back])
if state() != old:
    print("FAIL: applying the old state back does not give it")
    sys.exit(1)
ca = loop("apply", [old, new], [["apply", "--yes", back], ["apply", "--yes", fwd]],
          [d_back * 1.2, d_fwd * 1.2])

# numvfs: 4 (with the sample's VF settings) -> 2 -> 4 (defaults) -> 2 ...
pf = p0["pci_address"]
nv = lambda n: ["sriov", "set", "numvfs", str(n), "--yes", "-d", pf]
start = state()
d2 = timed(nv(2))
s2 = state()
d4 = timed(nv(4))
s4 = state()
d2 = max(d2, timed(nv(2)))
# the loop starts at 2 VFs: 2 -> 4 -> 2 ...
cn = loop("numvfs", [s2, s4], [nv(2), nv(4)], [d2 * 1.2, d4 * 1.2])

bad = 0
for c in (ca, cn):
    bad += c["mixed"] + c["leftovers"] + c["failed"]
print("  ok: no mix, no leftovers" if not bad else "FAIL: %d bad rounds" % bad)
sys.exit(1 if bad else 0)
EOF
finish
