#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""module-eeprom-set.py FILE OFFSET VALUE...: write the bytes VALUE... (hex)
from OFFSET into the page a capture's recorded module EEPROM reply FILE holds
(netlink/ethtool/<if>/module-eeprom-i2cXX-pageXX-bankN-offN.nl, named by the
read's own offset: OFFSET is the byte's address in the 256-byte I2C page), as
the module would change them.  The reply (KERNEL net/ethtool/eeprom.c
eeprom_fill_reply): nlmsghdr, genlmsghdr, the header nest, then
ETHTOOL_A_MODULE_EEPROM_DATA (7) with the bytes read."""
import re, struct, sys
path, addr, vals = sys.argv[1], int(sys.argv[2], 0), [int(v, 16) for v in sys.argv[3:]]
start = int(re.search(r'-off(\d+)\.nl$', path).group(1))
msg = bytearray(open(path, 'rb').read())
off = 20        # after the nlmsghdr and the genlmsghdr
while off + 4 <= len(msg):
    alen, atype = struct.unpack('<HH', msg[off:off + 4])
    if alen < 4:
        break
    if atype & 0x3fff == 7:
        at = addr - start
        if at < 0 or at + len(vals) > alen - 4:
            sys.exit(f'{addr} is not in the {alen - 4} bytes from {start} of {path}')
        msg[off + 4 + at:off + 4 + at + len(vals)] = bytes(vals)
        break
    off += (alen + 3) & ~3
else:
    sys.exit(f'no ETHTOOL_A_MODULE_EEPROM_DATA in {path}')
open(path, 'wb').write(msg)
