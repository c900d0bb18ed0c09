#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One kernel boundary (DESIGN "Layers", issue 14 point 1), held by grep:

  - cmd/ names no kernel path (a string literal that starts with /sys,
    /proc, /dev/kmsg or /sys/kernel/debug) and makes no socket() or
    ioctl() call: those are lib/'s (lib/core/boundary-live.c); but for
    TIOCGWINSZ, the window size of the terminal `mlxcli top` draws on,
    which is the terminal's, not the kernel's view of a device (WINSIZE);
  - no feature and no command asks "live or captured?" (issue 26): none
    of its spellings, old or new -- mlx_is_live, mlx_kernel_can and the
    MLX_KCAP_* bits, a context's ->live, the root compared with "/", the
    target's name compared with "live" -- appears in lib/ or cmd/ outside
    lib/core (the context, the root prefix and the boundary itself); each
    is counted, and the count must be 0;
  - lib/core includes no feature header: only the headers of the core and
    of what it is built on (CORE_HEADERS); the emulators register
    themselves in lib/emul/emulators.c, the captured boundary walks that
    table and names no feature;
  - lib/ outside lib/core and lib/backend opens no socket (socket(),
    socketpair(), libnl's nl_socket_alloc()): a feature reaches the kernel
    through the boundary's operations (the monitor's multicast
    subscriptions are its event_stream);
  - cmd/ handles no netlink message and no kernel-log record (issue 26:
    the monitor's event source is lib's, lib/monitor/source.c): no
    netlink or rtnetlink header, no nlmsghdr or NLMSG_ walk, no RTM_/
    RTNLGRP_ constant, no call of the stream readers or per-message
    decoders (mlx_kmsg_classify, mlx_kmsg_next, mlx_*_notify_event,
    mlx_rtnl_link_events, mlx_monitor_recv, ...); cmd/ takes events from
    mlx_evsrc_next only;
  - lib/ reads no environment (DESIGN "Layers": no getenv in lib/; the
    caller passes what it needs, as the monitor's hook gets PATH and the
    environment from cmd/): no getenv(), secure_getenv() or environ.

Comments are stripped first, so a comment may talk about /sys; a path
inside a message (a hint naming the debugfs mount point) is a word, not a
path the code opens, and does not start the literal.  Usage:
boundary.py TOP_SRCDIR.  Prints one line per finding; exit 1 on any.
"""
import os
import re
import sys

# Files another change is still moving into lib/ (the dump-me-now items'
# config-space, AER and kernel-log reads: the `renderer` work of issue 14).
# Listed findings there are reported as PENDING, not failures; the list
# must shrink to nothing.
PENDING = {"cmd/dmn-items.c"}

PATH = re.compile(r'"(/sys(/|")|/proc(/|")|/dev/kmsg)')
CALL = re.compile(r'\b(socket|ioctl|socketpair)\s*\(')
WINSIZE = re.compile(r'\bioctl\s*\([^,]+,\s*TIOCGWINSZ\s*,')
LIVE = re.compile(r'\b(mlx_is_live|mlx_kernel_can|MLX_KCAP_\w+)\b|->live\b'
                  r'|\bmlx_root\([^()]*\)\s*,\s*"/"|"/"\s*,\s*mlx_root\('
                  r'|\bmlx_target_name\([^()]*\)\s*,\s*"live"|"live"\s*,\s*mlx_target_name\(')
# The headers lib/core may include: its own, and those of what it is built
# on (the netlink codec, config space, the device model it selects from).
# A feature's header (dcb.h, dcqcn.h, params.h, sriov.h, ...) is not one.
CORE_HEADERS = {
    "config.h", "mlx.h", "mlx-private.h", "nl.h", "pcicfg.h", "device.h", "devid.h",
    "lock.h", "tree.h", "sha256.h", "json-writer.h", "write.h", "incident.h",
    "journal.h",   # lib/core/journal.c: the write-ahead log of rootfs's writes
}
ENV = re.compile(r'\b(getenv|secure_getenv)\s*\(|\benviron\b')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOCKET = re.compile(r'\b(socket|socketpair|nl_socket_alloc)\s*\(')
# netlink messages and kernel-log records are lib's to read and decode
STREAM = re.compile(r'#\s*include\s*<linux/(netlink|rtnetlink|genetlink)\.h>|'
                    r'\bnlmsghdr\b|\bNLMSG_[A-Z]+\b|\bRTM_[A-Z]+\b|\bRTNLGRP_[A-Z]+\b|'
                    r'\bmlx_kmsg_(classify|next|open|reader_init|seq_gap)\w*|'
                    r'\bmlx_[a-z]+_notify_event\b|\bmlx_rtnl_link_events\b|'
                    r'\bmlx_monitor_(recv|recorded|rtnl_open|devlink_open|ethtool_open)\b')


def strip_comments(text):
    """C source without comments; strings and line numbers kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def sources(top, folder):
    for root, _, files in os.walk(os.path.join(top, folder)):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                path = os.path.join(root, f)
                yield os.path.relpath(path, top), path


def main():
    top = sys.argv[1]
    failed = 0
    for rel, path in sources(top, "cmd"):
        with open(path, encoding="utf-8") as f:
            code = strip_comments(f.read())
        for no, line in enumerate(code.split("\n"), 1):
            for what, rx in (("kernel path", PATH), ("call", CALL),
                             ("netlink or kernel-log handling", STREAM)):
                m = rx.search(line)
                if m and rx is CALL and WINSIZE.search(line):
                    continue
                if m:
                    tag = "PENDING" if rel in PENDING else "FAIL"
                    print(f"{tag}: {rel}:{no}: {what} {m.group(0)!r} in cmd/: "
                          f"{line.strip()}")
                    failed += tag == "FAIL"
    for rel, path in sources(top, "lib"):
        if rel.startswith(("lib/core/", "lib/backend/")):
            continue
        with open(path, encoding="utf-8") as f:
            code = strip_comments(f.read())
        for no, line in enumerate(code.split("\n"), 1):
            m = SOCKET.search(line)
            if m:
                print(f"FAIL: {rel}:{no}: {m.group(0)!r} outside lib/core and lib/backend: "
                      f"{line.strip()}")
                failed += 1
    for rel, path in sources(top, "lib"):
        with open(path, encoding="utf-8") as f:
            code = strip_comments(f.read())
        for no, line in enumerate(code.split("\n"), 1):
            m = ENV.search(line)
            if m:
                print(f"FAIL: {rel}:{no}: {m.group(0)!r}: lib/ reads the environment: "
                      f"{line.strip()}")
                failed += 1
    asks = 0
    for folder in ("lib", "cmd"):
        for rel, path in sources(top, folder):
            if rel.startswith("lib/core/"):
                continue
            with open(path, encoding="utf-8") as f:
                code = strip_comments(f.read())
            for no, line in enumerate(code.split("\n"), 1):
                m = LIVE.search(line)
                if m:
                    print(f"FAIL: {rel}:{no}: {m.group(0)!r} asks live or captured outside "
                          f"lib/core: {line.strip()}")
                    asks += 1
    feature = 0
    for rel, path in sources(top, "lib/core"):
        with open(path, encoding="utf-8") as f:
            code = strip_comments(f.read())
        for no, line in enumerate(code.split("\n"), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) not in CORE_HEADERS:
                print(f"FAIL: {rel}:{no}: lib/core includes {m.group(1)}, not a core header")
                feature += 1
    print(f"count: {asks} live-or-captured checks outside lib/core, "
          f"{feature} feature headers included by lib/core")
    failed += asks + feature
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
