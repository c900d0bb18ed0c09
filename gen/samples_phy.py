# SPDX-License-Identifier: GPL-2.0-or-later
"""The physical layer of the sample hosts (issue 18), as `mlxcli snapshot`
records it: one ETHTOOL_MSG_MODULE_EEPROM_GET reply per half page read,
netlink/ethtool/<if>/module-eeprom-i2cXX-pageXX-bankN-offN.nl
(KERNEL net/ethtool/eeprom.c eeprom_fill_reply: the header nest, then
ETHTOOL_A_MODULE_EEPROM_DATA with the bytes the driver read).

The pages are real module dumps, read from ../shared/fixtures/module at
generation time (FIX: paths below; the bytes are not typed in here):
  cx5-ofed PF0         a QSFP28 100G ER4 (SFF-8636): lower page, page 00h
                       and page 03h as Junos printed them.  SYNTH edit: the
                       lane flags (lower bytes 3-5, 0x0f 0x00 0x0f: Rx loss of
                       signal and of lock on every lane) are cleared.  They
                       are latched and cleared by a read, so Junos saw them
                       once; a port whose 100G link is up receives on every
                       lane, and the sample's PF0 is a healthy up port
                       (tests/cli/module-flags.sh raises them in a copy).
  cx6dx-upstream PFs   a CMIS 5 module (Eoptolink): lower page, pages 00h,
                       01h, 02h and 11h.  SYNTH edit: the identifier (bytes 0
                       and 128) says 0x1e "QSFP+ or later with CMIS" (a
                       QSFP56, the CX-6 Dx cage) instead of QSFP-DD, and the
                       page 00h checksum (byte 222) is recomputed for it.
A port whose link is down (an empty cage: cx5-ofed PF1) answers the lower
page with the error mlx5 gives when no module answers (-EIO).
"""
import os
import re
import struct

ETHTOOL_MSG_MODULE_EEPROM_GET = 31
ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY = 32
ETHTOOL_A_MODULE_EEPROM_HEADER = 1
ETHTOOL_A_MODULE_EEPROM_DATA = 7
EIO = 5

FIX_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "fixtures", "module")
QSFP28_FIX = "sff8636-qsfp28-er4-qsfptek-QT-QSFP28-ER4-junos-show-qsfp-info-lower-upper00-page03.txt"
CMIS_FIX = "cmis5-qsfp-dd-400g-eoptolink-EOLD-168HG-10-1-junos-eeprom-pages-00-01-02-03-10-11.txt"


def junos_pages(name):
    """{page: {offset: byte}} from a Junos page table ("Lower Page" is
    page 0 offsets 0-127, "Upper Page NNh" page NN offsets 128-255)."""
    path = os.path.join(FIX_DIR, name)
    if not os.path.exists(path):
        raise SystemExit("gen/samples_phy.py needs the fixture %s" % path)
    pages, page = {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.search(r"(Lower|Low) Page|Upper Page ([0-9A-Fa-f]{2})h", line)
        if m:
            page = 0 if m.group(1) else int(m.group(2), 16)
            continue
        m = re.match(r"^\s*(?:Address )?0x([0-9a-f]{2}):?((?:\s+[0-9a-f]{2})+)\s*$", line)
        if m and page is not None:
            off = int(m.group(1), 16)
            for i, b in enumerate(m.group(2).split()):
                pages.setdefault(page, {})[off + i] = int(b, 16)
    return pages


def half(pages, page, start):
    d = pages.get(page, {})
    out = bytearray()
    for off in range(start, start + 128):
        if off not in d:
            break
        out.append(d[off])
    return bytes(out)


def module_reads(kind):
    """[(i2c, page, bank, offset, bytes)] in the order mlxcli asks."""
    if kind == "qsfp28":
        p = junos_pages(QSFP28_FIX)
        lower = bytearray(half(p, 0, 0))
        lower[3:6] = b"\0\0\0"                       # SYNTH: the latched flags (see above)
        return [(0x50, 0, 0, 0, bytes(lower)), (0x50, 0, 0, 128, half(p, 0, 128)),
                (0x50, 3, 0, 128, half(p, 3, 128))]
    p = junos_pages(CMIS_FIX)
    lower, up0 = bytearray(half(p, 0, 0)), bytearray(half(p, 0, 128))
    lower[0] = up0[0] = 0x1e                       # SYNTH: QSFP56 (see above)
    up0[222 - 128] = sum(up0[0:222 - 128]) & 0xff  # CMIS page 00h checksum, bytes 128-221
    return [(0x50, 0, 0, 0, bytes(lower)), (0x50, 0, 0, 128, bytes(up0)),
            (0x50, 1, 0, 128, half(p, 1, 128)), (0x50, 2, 0, 128, half(p, 2, 128)),
            (0x50, 0x11, 0, 128, half(p, 0x11, 128))]


def req_name(i2c, page, bank, off):
    return "module-eeprom-i2c%02x-page%02x-bank%u-off%u.nl" % (i2c, page, bank, off)


def write_modules(root, hostname, fns, nla, nla_str, nlmsg, nlmsg_err, genl_id):
    pfs = sorted((f for f in fns if f["vendor"] == 0x15b3 and not f.get("physfn") and f.get("netdevs")),
                 key=lambda f: f["bdf"])
    kind = "qsfp28" if hostname.startswith("cx5") else "cmis"
    for f in pfs:
        n = f["netdevs"][0]
        d = os.path.join(root, "netlink", "ethtool", n["name"])
        os.makedirs(d, exist_ok=True)
        if not n["up"]:
            # request: nlmsghdr 16 + genlmsghdr 4 + header nest (8 + name) + 3 u32/u8 attrs...
            with open(os.path.join(d, req_name(0x50, 0, 0, 0)), "wb") as fp:
                fp.write(nlmsg_err(EIO, ETHTOOL_MSG_MODULE_EEPROM_GET, 72))
            continue
        hdr = nla(0x8000 | ETHTOOL_A_MODULE_EEPROM_HEADER,
                  nla(1, struct.pack("<I", n["ifindex"])) + nla_str(2, n["name"]))
        for i2c, page, bank, off, data in module_reads(kind):
            body = struct.pack("<BBH", ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, 1, 0) + hdr
            body += nla(ETHTOOL_A_MODULE_EEPROM_DATA, data)
            with open(os.path.join(d, req_name(i2c, page, bank, off)), "wb") as fp:
                fp.write(nlmsg(genl_id, 0, body))


# ---------------------------------------------------------------------------
# Link settings, FEC and pause, as `mlxcli link` reads them (lib/phy/link.c):
#   netlink/ethtool/<if>/linkmodes-get.nl  ETHTOOL_MSG_LINKMODES_GET_REPLY
#   netlink/ethtool/<if>/fec-get.nl        ETHTOOL_MSG_FEC_GET_REPLY, with stats
#   netlink/ethtool/<if>/pause-get.nl      ETHTOOL_MSG_PAUSE_GET_REPLY, with stats
# (KERNEL net/ethtool/linkmodes.c, fec.c, pause.c; bitsets in the verbose
# form of net/ethtool/bitset.c, as a request without COMPACT_BITSETS gets.)
# The supported modes are those mlx5 reported on a ConnectX-4 100G port
# (FIX: module/qsfp28-cwdm4-finisar-FTLC1152RGPL6-FB-cx4-mlx5-ethtool-m-full-
# dom-flags-before-after-oui-reprogram.txt, "Supported link modes"); FEC
# "Auto" with active RS as mlx5 shows it (FIX: module/fec-show-fec-mlx5-cx7-
# dgx-spark-auto-rs-none-set-rs.txt).  Speeds, counts: SYNTH; cx6dx PF1 is
# made to train at 50G with FEC uncorrectables so the verdict has work.
# ---------------------------------------------------------------------------
ETHTOOL_MSG_LINKMODES_GET_REPLY, ETHTOOL_MSG_PAUSE_GET_REPLY, ETHTOOL_MSG_FEC_GET_REPLY = 4, 22, 30
LM_AUTONEG, LM_OURS, LM_PEER, LM_SPEED, LM_DUPLEX, LM_LANES = 2, 3, 4, 5, 6, 9
BITSET_NOMASK, BITSET_SIZE, BITSET_BITS = 1, 2, 3
BITS_BIT, BIT_INDEX, BIT_NAME, BIT_VALUE = 1, 1, 2, 3
FEC_MODES, FEC_AUTO, FEC_ACTIVE, FEC_STATS, FEC_STAT_CORRECTED, FEC_STAT_UNCORR = 2, 3, 4, 5, 2, 3
PAUSE_AUTONEG, PAUSE_RX, PAUSE_TX, PAUSE_STATS, PAUSE_STAT_TX, PAUSE_STAT_RX = 2, 3, 4, 5, 2, 3
NEST = 0x8000
MLX5_CX4_MODES = [(17, "1000baseKX/Full"), (19, "10000baseKR/Full"), (23, "40000baseKR4/Full"),
                  (24, "40000baseCR4/Full"), (25, "40000baseSR4/Full"), (26, "40000baseLR4/Full"),
                  (31, "25000baseCR/Full"), (32, "25000baseKR/Full"), (33, "25000baseSR/Full"),
                  (34, "50000baseCR2/Full"), (35, "50000baseKR2/Full"), (36, "100000baseKR4/Full"),
                  (37, "100000baseSR4/Full"), (38, "100000baseCR4/Full"), (39, "100000baseLR4_ER4/Full")]
LINK = {   # netdev -> speed, lanes, fec corrected/uncorrectable per lane, pause rx/tx frames
    "enp94s0f0np0": (100000, 4, [310, 402, 288, 287], [0, 0, 0, 0], 1520, 0),
    "enp94s0f1np1": (None, None, None, None, 0, 0),
    "enp59s0f0np0": (100000, 4, [12, 9, 15, 11], [0, 0, 0, 0], 0, 0),
    "enp59s0f1np1": (50000, 2, [88410, 91230], [7, 5], 0, 0),
}

PFC_ON = {"enp94s0f0np0", "enp94s0f1np1"}   # the netdevs whose DCB reply has PFC on


def write_links(root, fns, nla, nla_str, nlmsg, genl_id):
    pfs = sorted((f for f in fns if f["vendor"] == 0x15b3 and not f.get("physfn") and f.get("netdevs")),
                 key=lambda f: f["bdf"])
    for f in pfs:
        n = f["netdevs"][0]
        speed, lanes, corr, uncorr, rxp, txp = LINK[n["name"]]
        d = os.path.join(root, "netlink", "ethtool", n["name"])
        os.makedirs(d, exist_ok=True)
        hdr = nla(NEST | 1, nla(1, struct.pack("<I", n["ifindex"])) + nla_str(2, n["name"]))

        def msg(cmd, attrs):
            return nlmsg(genl_id, 0, struct.pack("<BBH", cmd, 1, 0) + hdr + attrs)

        bits = b"".join(nla(NEST | BITS_BIT, nla(BIT_INDEX, struct.pack("<I", i)) + nla_str(BIT_NAME, name) +
                            nla(BIT_VALUE, b"")) for i, name in MLX5_CX4_MODES)
        ours = nla(NEST | LM_OURS, nla(BITSET_SIZE, struct.pack("<I", 102)) + nla(NEST | BITSET_BITS, bits))
        peer = nla(NEST | LM_PEER, nla(BITSET_NOMASK, b"") + nla(BITSET_SIZE, struct.pack("<I", 102)) +
                   nla(NEST | BITSET_BITS, b""))
        a = nla(LM_AUTONEG, struct.pack("<B", 1)) + ours + peer
        a += nla(LM_SPEED, struct.pack("<I", speed if speed else 0xffffffff))
        a += nla(LM_DUPLEX, struct.pack("<B", 1 if speed else 0xff))
        if lanes:
            a += nla(LM_LANES, struct.pack("<I", lanes))
        with open(os.path.join(d, "linkmodes-get.nl"), "wb") as fp:
            fp.write(msg(ETHTOOL_MSG_LINKMODES_GET_REPLY, a))
        a = nla(NEST | FEC_MODES, nla(BITSET_NOMASK, b"") + nla(BITSET_SIZE, struct.pack("<I", 102)) +
                nla(NEST | BITSET_BITS, b""))
        a += nla(FEC_AUTO, struct.pack("<B", 1))
        if speed:
            a += nla(FEC_ACTIVE, struct.pack("<I", 50))           # ETHTOOL_LINK_MODE_FEC_RS_BIT
            a += nla(NEST | FEC_STATS,
                     nla(FEC_STAT_CORRECTED, struct.pack("<%dQ" % (1 + len(corr)), sum(corr), *corr)) +
                     nla(FEC_STAT_UNCORR, struct.pack("<%dQ" % (1 + len(uncorr)), sum(uncorr), *uncorr)))
        with open(os.path.join(d, "fec-get.nl"), "wb") as fp:
            fp.write(msg(ETHTOOL_MSG_FEC_GET_REPLY, a))
        # global pause: mlx5 keeps it and PFC in one register (PFCC) and a
        # PFC write clears pptx/pprx (mlx5/core/port.c mlx5_set_port_pfc),
        # so a port with PFC on reports pause off (cx5-ofed: PFC 3,6 on both
        # ports); cx6dx-upstream's ports, PFC off, keep mlx5's default on
        gp = 0 if n["name"] in PFC_ON else 1
        a = nla(PAUSE_AUTONEG, struct.pack("<B", 0)) + nla(PAUSE_RX, struct.pack("<B", gp))
        a += nla(PAUSE_TX, struct.pack("<B", gp))
        a += nla(NEST | PAUSE_STATS, nla(PAUSE_STAT_TX, struct.pack("<Q", txp)) +
                 nla(PAUSE_STAT_RX, struct.pack("<Q", rxp)))
        with open(os.path.join(d, "pause-get.nl"), "wb") as fp:
            fp.write(msg(ETHTOOL_MSG_PAUSE_GET_REPLY, a))


# ---------------------------------------------------------------------------
# The mlx5 hwmon device (Linux 6.1+, mlx5/core/hwmon.c) on the upstream
# host only (MLNX_OFED 5.x has none): /sys/bus/pci/devices/<BDF>/hwmon/
# hwmonN/{name,temp1_input,temp1_crit,temp1_highest,temp1_label}, in
# millidegrees.  Values: the ASIC readings of two ConnectX-6 Dx (BlueField-2)
# functions in FIX: module/sensors-mlx5-hwmon-bluefield2-cx6dx-6-functions-
# asic-temp.txt ("asic: +57.0 C (crit = +105.0 C, highest = +58.0 C)" and
# "+62.0 C (crit = +105.0 C, highest = +74.0 C)").
# ---------------------------------------------------------------------------
HWMON = [(57000, 105000, 58000), (62000, 105000, 74000)]


def write_hwmon(root, hostname, fns):
    if not hostname.startswith("cx6dx"):
        return
    pfs = sorted((f for f in fns if f["vendor"] == 0x15b3 and not f.get("physfn") and f.get("netdevs")),
                 key=lambda f: f["bdf"])
    for k, f in enumerate(pfs):
        d = os.path.join(root, "sys", "bus", "pci", "devices", f["bdf"], "hwmon", "hwmon%d" % (k + 2))
        os.makedirs(d, exist_ok=True)
        t, crit, high = HWMON[k % len(HWMON)]
        for name, val in (("name", "mlx5"), ("temp1_input", t), ("temp1_crit", crit),
                          ("temp1_highest", high), ("temp1_label", "asic")):
            with open(os.path.join(d, name), "w") as fp:
                fp.write("%s\n" % val)
