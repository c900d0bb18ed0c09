# SPDX-License-Identifier: GPL-2.0-or-later
"""The hostile-capture generator (issue 29): captures that someone else
sent, made to hurt.  At every level of every tree mlxcli reads or its
emulators change (sysfs directories and files, the recorded netlink
replies), one plant at a time replaces what is there:

  abslink / dotlink   a directory or file turned into a link leading out of
                      the capture (absolute, or with enough '..' to climb
                      out); what it points at exists both outside and, at
                      the same path, inside, so a command goes on as far
                      as it would and any step that escapes touches the
                      outside copy
  fifo                a FIFO (an open would wait for a writer forever)
  chardev             a character device (/dev/zero's numbers: endless)
  garbage             random bytes (a directory becomes a file of them)
  huge                a sparse file larger than anything mlxcli reads
  empty               an empty file
  unreadable          mode 0 (only meaningful as another user: the nobody pass)
  abslink+undo,       the links, with the PF's recorded VF table garbage, so
  dotlink+undo        that `sriov set numvfs` fails after it made the VFs'
                      directories and must undo them; every folder of the
                      outside tree holds "victims" named as those VFs'
                      directories, which an undo that followed the links
                      would remove (issue 29 item 1, exactly)

Each variant is run with read commands and write commands in up to three
modes: openat2 (the kernel's RESOLVE_IN_ROOT), its fallback forced (the
fault shim's MLXCLI_NO_OPENAT2: mlxcli's own component walk), and under
valgrind.  A variant passes when every run ends within the time limit
with a documented exit code (0-5) and no sanitizer or valgrind report,
nothing outside the capture changed (every file, link and directory
of the outside tree, content and type), a write that failed left the
capture as it was, and the pristine tree the capture was hard-linked
from is unchanged (a write in place would carry into it).

Usage: hostile-capture.py MLXCLI SAMPLE WORKDIR SHIM [VALGRIND]
Environment: HOSTILE_ONLY=TEXT runs the levels whose path holds TEXT,
HOSTILE_KINDS=K,K... those kinds only (to look at one finding);
HOSTILE_FULL=1 runs every command of every variant in every
mode (slow); HOSTILE_NOBODY=1 adds the unreadable variants as uid 65534.
"""
import concurrent.futures
import hashlib
import os
import random
import shutil
import subprocess
import sys
import threading

MLXCLI, SAMPLE, WORK, SHIM = sys.argv[1:5]
VALGRIND = sys.argv[5] if len(sys.argv) > 5 else ""
FULL = os.environ.get("HOSTILE_FULL") == "1"
# MLXCLI is itself valgrind (make check-valgrind wraps it): every run is
# twenty times slower, so only the emulators' trees, links and their undo
WRAPPED = os.environ.get("HOSTILE_WRAPPED") == "1"
NOBODY = os.environ.get("HOSTILE_NOBODY") == "1"
TIMEOUT = 60 if VALGRIND else 20
ONLY = os.environ.get("HOSTILE_ONLY", "")   # a substring of the levels to run (debugging)
KINDS = os.environ.get("HOSTILE_KINDS", "")  # the kinds to run, comma-separated (debugging)
NOBODY_MLXCLI = os.environ.get("HOSTILE_NOBODY_MLXCLI", MLXCLI)
NOBODY_WORK = os.environ.get("HOSTILE_NOBODY_WORK", "")

PF1 = "sys/devices/pci0000:5d/0000:5d:00.0/0000:5e:00.1"
PF0 = "sys/devices/pci0000:5d/0000:5d:00.0/0000:5e:00.0"
DIRS = [
    "sys", "sys/bus/pci/devices", "sys/devices",
    "sys/devices/pci0000:5d", "sys/devices/pci0000:5d/0000:5d:00.0", PF0, PF1,
    PF0 + "/net/enp94s0f0np0", PF0 + "/net/enp94s0f0np0/ecn",
    PF0 + "/net/enp94s0f0np0/ecn/roce_rp", PF0 + "/infiniband",
    "sys/class/net", "netlink", "netlink/route/enp94s0f1np1",
    "netlink/route/enp94s0f0np0", "netlink/devlink",
]
# every level, with HOSTILE_FULL=1
DIRS_FULL = ["sys/bus", "sys/bus/pci", PF0 + "/net", "sys/class", "sys/class/infiniband",
             "netlink/route", "netlink/ethtool"]
FILES = [
    PF1 + "/sriov_numvfs", PF1 + "/sriov_totalvfs", PF1 + "/config", PF1 + "/vendor",
    PF0 + "/config", PF0 + "/net/enp94s0f0np0/operstate", PF0 + "/net/enp94s0f0np0/address",
    PF0 + "/net/enp94s0f0np0/ecn/roce_rp/enable/3",
    "netlink/route/enp94s0f1np1/getlink-vf.nl", "netlink/route/enp94s0f0np0/ieee-get.nl",
    "mlxcli-snapshot.json",
]
# links at the levels where a link is what the kernel has
LINKS = ["sys/bus/pci/devices/0000:5e:00.1", "sys/class/net/enp94s0f0np0", PF1 + "/virtfn0"]

READS = [
    ["devices"], ["sriov", "show"], ["show", "qos"], ["qosconfig", "dcqcn", "get", "-d", "enp94s0f0np0"],
    ["counters", "-d", "enp94s0f0np0"], ["fw"], ["ports"],
]
VF_DIRS = ("0000:5e:01.2", "0000:5e:01.3")   # numvfs 2 on 5e:00.1 (offset, stride)
WRITES = [
    ["sriov", "set", "numvfs", "2", "-d", "5e:00.1", "--yes"],
    ["sriov", "set", "numvfs", "2", "-d", "5e:00.0", "--yes"],   # 4 -> 2: VFs put aside, removed
    ["qosconfig", "dcqcn", "set", "-d", "enp94s0f0np0", "rpg_ai_rate", "10"],
    ["qosconfig", "trust", "pcp", "-d", "enp94s0f0np0"],
    ["sriov", "vf", "0", "set", "mac", "02:00:00:00:00:09", "-d", "5e:00.0"],
]

runs = 0
runs_lock = threading.Lock()


class Failures(list):
    """Each failure printed when found: a slow run shows them as they come."""
    def append(self, what):
        super().append(what)
        if len(self) <= 60:
            print("FAIL: " + what, flush=True)


failures = Failures()


_hashes = {}


def content_hash(p, st):
    """A file's SHA-1, read once per inode and change (the trees are
    fingerprinted before and after every write)."""
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    h = _hashes.get(key)
    if h is None:
        try:
            with open(p, "rb") as f:
                h = hashlib.sha1(f.read()).hexdigest()
        except OSError:
            h = "unreadable"
        _hashes[key] = h
    return h


def fingerprint(top):
    """Every entry below @top: type, link target, size and content hash."""
    out = []
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
        for name in sorted(dirnames + filenames):
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, top)
            try:
                st = os.lstat(p)
            except OSError as e:
                out.append((rel, "gone", e.errno))
                continue
            mode = st.st_mode
            if os.path.islink(p):
                out.append((rel, "l", os.readlink(p)))
            elif os.path.isdir(p):
                out.append((rel, "d", mode & 0o7777))
            elif (mode & 0o170000) == 0o100000:
                h = content_hash(p, st) if st.st_size <= (1 << 20) else ""
                out.append((rel, "f", st.st_size, h))
            else:
                out.append((rel, "special", mode & 0o170000, st.st_rdev))
    return sorted(out, key=repr)


def dots(rel_dir):
    """'../' enough to climb from ROOT/rel_dir to ROOT's parent."""
    return "../" * ((rel_dir.count("/") + 1 if rel_dir else 0) + 1)


def plant(root, outside, rel, kind, rng):
    """Replace ROOT/rel by @kind; return False when it makes no sense."""
    p = os.path.join(root, rel)
    if not os.path.lexists(p):
        return False
    isdir = os.path.isdir(p) and not os.path.islink(p)
    undo = kind.endswith("+undo")
    kind = kind.replace("+undo", "")
    if undo:
        # before anything moves: the table is then garbage wherever it ends up
        vf = os.path.join(root, "netlink/route/enp94s0f1np1/getlink-vf.nl")
        os.unlink(vf)
        with open(vf, "wb") as f:
            f.write(bytes(rng.getrandbits(8) for _ in range(100)))
    if kind in ("abslink", "dotlink"):
        # the thing moves outside (the attacker's target); a twin stays at
        # the path the link names inside the root, so resolution inside
        # the root finds a whole tree and goes on
        name = rel.replace("/", "_")
        target_host = os.path.join(outside, name)
        if os.path.lexists(target_host):
            return False
        shutil.move(p, target_host)
        if kind == "abslink":
            link = target_host
            twin = root + target_host
        else:
            link = dots(os.path.dirname(rel)) + os.path.basename(outside) + "/" + name
            twin = os.path.join(root, os.path.basename(outside), name)
        os.makedirs(os.path.dirname(twin), exist_ok=True)
        if os.path.isdir(target_host) and not os.path.islink(target_host):
            shutil.copytree(target_host, twin, symlinks=True)
        elif os.path.islink(target_host):
            os.symlink(os.readlink(target_host), twin)
        else:
            shutil.copy2(target_host, twin)
        os.symlink(link, p)
        if undo:
            for dirpath, dirnames, _ in os.walk(outside):
                for v in VF_DIRS:
                    os.makedirs(os.path.join(dirpath, v), exist_ok=True)
                    with open(os.path.join(dirpath, v, "victim"), "w") as f:
                        f.write("victim\n")
        return True
    if kind == "unreadable":
        os.chmod(p, 0)
        return True
    if isdir:
        shutil.rmtree(p)
    else:
        os.unlink(p)
    if kind == "fifo":
        os.mkfifo(p, 0o666)
    elif kind == "chardev":
        os.mknod(p, 0o666 | 0o020000, os.makedev(1, 5))
    elif kind == "garbage":
        with open(p, "wb") as f:
            f.write(bytes(rng.getrandbits(8) for _ in range(rng.choice([1, 7, 64, 4097]))))
    elif kind == "huge":
        with open(p, "wb") as f:
            f.truncate(96 << 20)
    elif kind == "empty":
        open(p, "wb").close()
    return True


def run(mode, root, args, as_nobody=False):
    global runs
    with runs_lock:
        runs += 1
    env = dict(os.environ)
    cmd = [NOBODY_MLXCLI if as_nobody else MLXCLI, "--sysroot", root] + args
    if mode == "fallback":
        env["LD_PRELOAD"] = SHIM
        env["MLXCLI_NO_OPENAT2"] = "1"
    elif mode == "valgrind":
        cmd = [VALGRIND, "-q", "--error-exitcode=99", "--leak-check=no"] + cmd
    if as_nobody:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, b""
    return p.returncode, p.stderr


def variant(job, rel, kind, modes, cmds, nobody=False):
    # each variant its own folder and its own random stream (seeded by its
    # place in the plan): variants run side by side, a run is repeatable
    rng = random.Random(29 * 100003 + job)
    top = os.path.join(NOBODY_WORK if nobody else WORK, "v%d" % job)
    os.makedirs(top)
    try:
        return check_variant(top, rel, kind, modes, cmds, rng, nobody)
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", top], stderr=subprocess.DEVNULL)
        shutil.rmtree(top, ignore_errors=True)


def check_variant(top, rel, kind, modes, cmds, rng, nobody):
    root = os.path.join(top, "root")
    outside = os.path.join(top, "outside")
    os.makedirs(outside)
    with open(os.path.join(outside, "canary"), "w") as f:
        f.write("outside\n")
    # hard links to the pristine copy: a write in place would change it
    # (the nobody pass copies: its chmod would change the pristine inodes)
    subprocess.run(["cp", "-a" if nobody else "-al", SAMPLE, root], check=True)
    if not plant(root, outside, rel, kind, rng):
        return False
    if nobody:
        os.chmod(top, 0o755)
        subprocess.run(["chmod", "-R", "a+rwX", root], check=True)
        if kind == "unreadable":
            os.chmod(os.path.join(root, rel), 0)
    before_out = fingerprint(outside)
    for mode in modes:
        for args in cmds:
            is_write = args in WRITES
            before_in = fingerprint(root) if is_write else None
            rc, err = run(mode, root, args, nobody)
            what = "%s %s [%s]: mlxcli %s" % (kind, rel, mode, " ".join(args))
            if rc is None:
                failures.append(what + ": no end within %d s" % TIMEOUT)
                continue
            if rc < 0 or rc > 5:
                failures.append(what + ": exit %d: %s" % (rc, err.decode(errors="replace")[-600:]))
            if b"Sanitizer" in err or b"runtime error" in err:
                failures.append(what + ": " + err.decode(errors="replace")[-600:])
            after_out = fingerprint(outside)
            if after_out != before_out:
                changed = set(map(repr, before_out)) ^ set(map(repr, after_out))
                failures.append(what + ": changed outside the capture: %s" % sorted(changed)[:6])
                before_out = after_out
            if is_write and rc == 0:
                aside = [e for e in fingerprint(root) if ".removed." in e[0]]
                if aside:
                    failures.append(what + ": left what it put aside: %s" % aside[:3])
            if is_write and rc != 0:
                after_in = fingerprint(root)
                if after_in != before_in:
                    changed = set(map(repr, before_in)) ^ set(map(repr, after_in))
                    failures.append(what + ": exit %d but the capture changed: %s"
                                    % (rc, sorted(changed)[:6]))
    return True


def main():
    pristine = fingerprint(SAMPLE)
    modes = ["openat2", "fallback"]
    plan = []
    for rel in DIRS + (DIRS_FULL if FULL else []):
        # (a directory turned into an empty file is "garbage" again)
        for kind in ("abslink", "dotlink", "fifo", "garbage", "chardev"):
            plan.append((rel, kind))
    for rel in DIRS:
        if rel.startswith("sys/devices") and "/net" not in rel and "/infiniband" not in rel:
            plan.append((rel, "abslink+undo"))
            plan.append((rel, "dotlink+undo"))
    for rel in FILES + LINKS:
        for kind in ("abslink", "dotlink", "fifo", "chardev", "garbage", "huge", "empty"):
            plan.append((rel, kind))
    if WRAPPED:
        plan = [(r, k) for r, k in plan if k.startswith(("abslink", "dotlink"))
                and r.startswith("sys/devices/pci0000:5d") and r.count("/") <= 4]
        modes = ["openat2"]
    plan = [(r, k) for r, k in plan if ONLY in r and (not KINDS or k in KINDS.split(","))]
    jobs = []
    for rel, kind in plan:
        links = kind.startswith(("abslink", "dotlink"))
        # reads and writes in both modes for the links (where the two
        # resolutions differ) and for everything under HOSTILE_FULL;
        # the other kinds in one mode (the same open either way), every
        # read and the two writes that touch the most files (each write
        # costs two fingerprints of the tree)
        ms = modes if (links or FULL) else ["openat2"]
        if WRAPPED:
            cmds = [["sriov", "show"]] + WRITES[:3]
        elif links or FULL:
            cmds = READS + WRITES
        else:
            cmds = READS + [WRITES[0], WRITES[2]]
        jobs.append((rel, kind, ms, cmds, False))
    if VALGRIND:
        # the emulators' trees under valgrind: the links only, a read and
        # the writes that create, rename and remove
        for rel in ["sys/devices/pci0000:5d", "sys/devices/pci0000:5d/0000:5d:00.0", PF1,
                    "sys/bus/pci/devices", "netlink/route/enp94s0f1np1"] if not FULL else DIRS:
            for kind in ("abslink", "dotlink", "abslink+undo"):
                jobs.append((rel, kind, ["valgrind"], [["sriov", "show"]] + WRITES[:3], False))
    if NOBODY and NOBODY_WORK and not WRAPPED:
        for rel in DIRS + FILES:
            jobs.append((rel, "unreadable", ["openat2"], READS[:4] + WRITES[:3], True))
    # a variant per core at a time: each has its own tree and canary, and
    # mlxcli's runs are what costs (some 3,000 of them)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        done = list(pool.map(lambda j: variant(j[0], *j[1]), enumerate(jobs)))
    n = sum(1 for d in done if d)
    if fingerprint(SAMPLE) != pristine:
        failures.append("the pristine tree the captures were hard-linked from changed "
                        "(a write in place)")
    print("hostile captures: %d variants, %d runs, %d failures" % (n, runs, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
