#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The host's kernel log, for the tests that write into it (as root):

  kmsg.py write [-p PRIO] [-n COUNT] [TEXT]
      write TEXT (str.format'ed with i = 0..COUNT-1: "{i}") COUNT times,
      or the lines of stdin, into /dev/kmsg as records of level PRIO (3);
      each line through a /dev/kmsg opened for it alone: the kernel
      rate-limits what one open file writes (10 lines per 5 s, unless
      kernel.printk_devkmsg=on: kernel/printk/printk.c devkmsg_write)
  kmsg.py size        the log buffer's size in bytes (klogctl
                      SYSLOG_ACTION_SIZE_BUFFER)
  kmsg.py oldest      the sequence number of the oldest record it holds
  kmsg.py last        the sequence number of the newest

What user space writes is filed with the user facility: no monitor takes
it for the kernel's (mlxcli monitor --accept-user-records does, a test
option)."""
import ctypes
import errno
import os
import sys


def write(prio, lines):
    for line in lines:
        fd = os.open('/dev/kmsg', os.O_WRONLY)
        try:
            os.write(fd, ('<%d>%s\n' % (prio, line)).encode())
        finally:
            os.close(fd)


def records():
    """The sequence numbers of the records the buffer holds, oldest first."""
    fd = os.open('/dev/kmsg', os.O_RDONLY | os.O_NONBLOCK)
    try:
        while True:
            try:
                rec = os.read(fd, 8192)
            except BlockingIOError:
                return
            except OSError as e:
                if e.errno == errno.EPIPE:
                    continue
                raise
            yield int(rec.split(b',', 2)[1])
    finally:
        os.close(fd)


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    cmd = args.pop(0)
    if cmd == 'size':
        print(ctypes.CDLL(None, use_errno=True).klogctl(10, None, 0))
    elif cmd == 'oldest':
        print(next(records(), 0))
    elif cmd == 'last':
        last = 0
        for last in records():
            pass
        print(last)
    elif cmd == 'write':
        prio, count = 3, None
        while args and args[0] in ('-p', '-n'):
            opt, val = args.pop(0), int(args.pop(0))
            if opt == '-p':
                prio = val
            else:
                count = val
        if count is None:
            write(prio, (l.rstrip('\n') for l in sys.stdin))
        else:
            write(prio, (args[0].format(i=i) for i in range(count)))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
