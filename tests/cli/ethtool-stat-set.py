#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ethtool-stat-set.py DIR NAME VALUE: set the ethtool -S counter NAME of a
capture's interface DIR (netlink/ethtool/<if>/: its recorded STRSET_GET reply
names the counters, stats-values.nl holds the values in the message of
lib/backend/ethtool-stats.c) to VALUE, as the driver would count it."""
import struct, sys
d, name, value = sys.argv[1], sys.argv[2].encode() + b'\0', int(sys.argv[3])
names = open(d + '/strset-stats.nl', 'rb').read()
# an ETHTOOL_A_STRINGS_STRING nest: ETHTOOL_A_STRING_INDEX (1, u32), then
# ETHTOOL_A_STRING_VALUE (2, the name): the index is just before the name
pos = names.find(struct.pack('<HH', 4 + len(name), 2) + name)
if pos < 8:
    sys.exit(f'no counter {sys.argv[2]} in {d}')
index = struct.unpack('<I', names[pos - 4:pos])[0]
vals = bytearray(open(d + '/stats-values.nl', 'rb').read())
off, seen = 20, 0       # after the nlmsghdr and the genlmsghdr
while off < len(vals):
    alen, atype = struct.unpack('<HH', vals[off:off + 4])
    if atype == 3:
        k = (alen - 4) // 8
        if seen <= index < seen + k:
            struct.pack_into('<Q', vals, off + 4 + 8 * (index - seen), value)
            break
        seen += k
    off += (alen + 3) & ~3
else:
    sys.exit("index past the values")
open(d + '/stats-values.nl', 'wb').write(vals)
