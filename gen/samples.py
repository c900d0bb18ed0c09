#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generate the mlxcli sample hosts (captured-system trees) under tests/data/samples/.

    python3 gen/samples.py

Deletes tests/data/samples/<host>/ for every host below and recreates it from
scratch.  Deterministic: fixed timestamps, sorted iteration, no randomness, so
re-running produces byte-identical trees.  Stdlib only.

Every value carries a comment saying where it comes from:
  FIX:<path>   a real capture in ../shared/fixtures/<path>
  REF:§x.y     ../shared/reference/linux-mlx5-interfaces.md section x.y
  KERNEL:...   Linux kernel source behaviour (file/function named)
  SYNTH        invented for the sample (serials, GUIDs, MACs, addresses, counters)
The per-host README.md lists the same facts for readers of the tree.
"""

import hashlib
import json
import os
import shutil
import struct
import sys

import samples_phy
import samples_rdma
import samples_tunable
import samples_views

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "data", "samples")
CAPTURED_AT = "2024-01-15T12:00:00Z"  # SYNTH: fixed so the tree is reproducible


# ---------------------------------------------------------------------------
# Small file-writing helpers
# ---------------------------------------------------------------------------

def wfile(path, data, mode=0o644):
    """Write text (str) or binary (bytes) file, creating parents."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)


def wval(path, value, mode=0o444):
    """One sysfs value: "value\\n"."""
    wfile(path, "%s\n" % value, mode)


def symlink(path, target):
    """Relative kernel-style symlink; target is written verbatim."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def rel(frm_dir, to_path):
    return os.path.relpath(to_path, frm_dir)


# ---------------------------------------------------------------------------
# Config-space builder
# ---------------------------------------------------------------------------

class Cfg:
    def __init__(self, size):
        self.b = bytearray(size)

    def w8(self, off, v):
        self.b[off] = v & 0xff

    def w16(self, off, v):
        struct.pack_into("<H", self.b, off, v)

    def w32(self, off, v):
        struct.pack_into("<I", self.b, off, v)

    def cap(self, off, cap_id, nxt):
        """Standard capability header (ID, next pointer)."""
        self.w8(off, cap_id)
        self.w8(off + 1, nxt)

    def ecap(self, off, cap_id, ver, nxt):
        """Extended capability header: ID[15:0] version[19:16] next[31:20]."""
        self.w32(off, cap_id | (ver << 16) | (nxt << 20))


# Real 64-byte header of a ConnectX-5 PF (15b3:1017), copied verbatim from
# FIX:lspci/cx5-mt27800-15b3_1017-lspci-vx.txt (lines "00:".."30:").
CX5_CAPTURED_HEADER = bytes.fromhex(
    "b3 15 17 10 46 05 10 00 00 00 00 02 08 00 00 00"
    "0c 00 00 f8 00 00 00 00 00 00 00 00 00 00 00 00"
    "00 00 00 00 00 00 00 00 00 00 00 00 b3 15 80 00"
    "00 00 e0 fb 60 00 00 00 00 00 00 00 ff 01 00 00")

# PCIe link speed codes (LnkCap/LnkSta "Current Link Speed", PCIe spec).
GEN = {3: 3, 4: 4}  # 8GT/s = 3, 16GT/s = 4
SPEED_STR = {2: "5.0 GT/s PCIe", 3: "8.0 GT/s PCIe", 4: "16.0 GT/s PCIe", 0: "Unknown"}  # KERNEL: pci_speed_string()


def pcie_cap(c, off, nxt, port_type, lnkcap_speed, lnkcap_width, lnksta_speed,
             lnksta_width, devctl, devcap_extra=0, commclk=True, slotclk=True):
    """PCI Express capability v2 (ID 0x10), REF:§0.1 PCI_CAP_ID_EXP=0x10."""
    c.cap(off, 0x10, nxt)
    c.w16(off + 2, 0x0002 | (port_type << 4))       # version 2, device/port type
    # DevCap: MaxPayload 512 (code 2), ExtTag+, L0s/L1 unlimited, RBE+, FLReset+
    # (FIX:lspci-vvv/cx5ex-pf-15b3_1019-lspci-vvv.txt DevCap line)
    devcap = 2 | 1 << 5 | 7 << 6 | 7 << 9 | 1 << 15 | devcap_extra
    if port_type == 0:
        devcap |= 1 << 28                           # FLReset+ (endpoints)
    c.w32(off + 4, devcap)
    c.w16(off + 8, devctl)                          # DevCtl
    c.w16(off + 0xa, 0)                             # DevSta: clean (SYNTH)
    # LnkCap: speed, width, ASPM not supported, exit latencies unlimited, ASPMOptComp+
    c.w32(off + 0xc, lnkcap_speed | lnkcap_width << 4 | 7 << 12 | 7 << 15 | 1 << 22)
    c.w16(off + 0x10, (1 << 6) if commclk else 0)   # LnkCtl: RCB 64, CommClk
    c.w16(off + 0x12, lnksta_speed | lnksta_width << 4 | ((1 << 12) if slotclk else 0))
    # DevCap2: Completion Timeout ranges ABCD, TimeoutDis+ (cx5ex capture)
    c.w32(off + 0x24, 0xf | 1 << 4 | ((1 << 5) if port_type == 4 else 0))
    # DevCtl2: 50us to 50ms; root ports: ARIFwd+ (the PFs below use ARI)
    c.w16(off + 0x28, (1 << 5) if port_type == 4 else 0)
    if port_type == 4:
        # Root port: LnkCap LLActRep+, LnkSta DLActive+ (link up)
        c.w32(off + 0xc, struct.unpack_from("<I", c.b, off + 0xc)[0] | 1 << 20)
        c.w16(off + 0x12, struct.unpack_from("<H", c.b, off + 0x12)[0] | 1 << 13)
    # LnkCap2: supported speeds vector, bits 1..N up to LnkCap speed
    c.w32(off + 0x2c, ((1 << (lnkcap_speed + 1)) - 2))
    c.w16(off + 0x30, lnkcap_speed)                 # LnkCtl2: target speed = max
    # LnkSta2: EqualizationComplete+ Phase1+ Phase2+ Phase3+ (cx5ex capture)
    c.w16(off + 0x32, 0x1e if lnksta_speed >= 3 else 0)


# DevCtl for PFs: Fatal error reporting+, RlxdOrd+, ExtTag+, NoSnoop+,
# MaxPayload 256 (code 1), MaxReadReq 4096 (code 5) (FIX:lspci-vvv/cx5ex-pf-15b3_1019-lspci-vvv.txt)
PF_DEVCTL = 1 << 2 | 1 << 4 | 1 << 5 | 1 << 8 | 1 << 11 | 5 << 12


def vpd_cap(c, off, nxt):
    c.cap(off, 0x03, nxt)                           # REF:§0.1 PCI_CAP_ID_VPD, REF:§5.2


def msix_cap(c, off, nxt, count, enable):
    """MSI-X (ID 0x11): table BAR0+0x2000, PBA BAR0+0x3000 (FIX:lspci-vvv/cx7-pf1-15b3_1021-lspci-vvv.txt)."""
    c.cap(off, 0x11, nxt)
    c.w16(off + 2, (count - 1) | ((1 << 15) if enable else 0))
    c.w32(off + 4, 0x00002000)
    c.w32(off + 8, 0x00003000)


def vsec_cap(c, off, nxt):
    """Mellanox VSEC (ID 0x09) Len=0x18, vsec type byte (+3) 0 = functional (REF:§6.1).
    The gateway registers (+4..+0x17) read as zero here (SYNTH)."""
    c.cap(off, 0x09, nxt)
    c.w8(off + 2, 0x18)
    c.w8(off + 3, 0x00)


def pm_cap(c, off, nxt):
    """PM v3, AuxCurrent=375mA, PME(D3cold+), NoSoftRst+ (FIX:lspci-vvv/cx5ex-..., cx7-pf1-...)."""
    c.cap(off, 0x01, nxt)
    c.w16(off + 2, 3 | 7 << 6 | 1 << 15)
    c.w16(off + 4, 1 << 3)


def aer_ecap(c, off, nxt):
    """AER v1.  Masks/severity modelled on FIX:lspci-vvv/cx5ex-pf-15b3_1019-lspci-vvv.txt:
    UEMsk UnsupReq+; UESvrt DLP+ FCP+ RxOF+ MalfTLP+; CEMsk NonFatalErr+;
    AERCap First Error Pointer 04, GenCap+ ChkCap+.  Status registers clean."""
    c.ecap(off, 0x0001, 1, nxt)
    c.w32(off + 0x04, 0)                            # UESta
    c.w32(off + 0x08, 1 << 20)                      # UEMsk: UnsupReq
    c.w32(off + 0x0c, 1 << 4 | 1 << 13 | 1 << 17 | 1 << 18)  # UESvrt
    c.w32(off + 0x10, 0)                            # CESta
    c.w32(off + 0x14, 1 << 13)                      # CEMsk: NonFatalErr
    c.w32(off + 0x18, 0x04 | 1 << 5 | 1 << 7)       # AERCap


def ari_ecap(c, off, nxt, next_fn):
    """ARI v1 (ID 0x0e), ARICap Next Function (FIX:lspci-vvv/cx5ex: PF0 -> 1; cx7-pf1: 0)."""
    c.ecap(off, 0x000e, 1, nxt)
    c.w16(off + 4, next_fn << 8)


def sriov_ecap(c, off, nxt, ctrl, initial, total, num, fdl, vf_off, stride,
               vf_did, vf_bar0):
    """SR-IOV v1 (ID 0x10), layout REF:§4.4."""
    c.ecap(off, 0x0010, 1, nxt)
    c.w32(off + 0x04, 0)                            # IOVCap: Migration-, IRQ 000 (cx7-pf1)
    c.w16(off + 0x08, ctrl)
    c.w16(off + 0x0a, 0)
    c.w16(off + 0x0c, initial)
    c.w16(off + 0x0e, total)
    c.w16(off + 0x10, num)
    c.w8(off + 0x12, fdl)
    c.w16(off + 0x14, vf_off)
    c.w16(off + 0x16, stride)
    c.w16(off + 0x1a, vf_did)
    c.w32(off + 0x1c, 0x7ff)                        # Supported Page Size (REF:§4.4, cx7-pf1)
    c.w32(off + 0x20, 0x1)                          # System Page Size 4K
    c.w32(off + 0x24, (vf_bar0 & 0xffffffff) | 0x0c)  # VF BAR0: 64-bit prefetchable
    c.w32(off + 0x28, vf_bar0 >> 32)


def secpci_ecap(c, off, nxt):
    c.ecap(off, 0x0019, 1, nxt)                     # Secondary PCIe, REF:§0.1 SECPCI=0x19


def acs_ecap(c, off, nxt):
    c.ecap(off, 0x000d, 1, nxt)                     # ACS: all capabilities off (cx6lx/cx7 captures)


# Bus-master/mem/parity/SERR/DisINTx command, Cap+ status: from the captured header.
PF_COMMAND = 0x0546
STATUS_CAPLIST = 0x0010


def cx5_pf_config(fn, bar0, rom, vf_bar0):
    """ConnectX-5 PF: captured 64-byte header + synthesized capability bodies at
    the capture's offsets."""
    c = Cfg(4096)
    c.b[0:64] = CX5_CAPTURED_HEADER
    c.w8(0x0e, 0x80)                                # multi-function (dual-port; cx4lx capture)
    c.w32(0x10, (bar0 & 0xffffffff) | 0x0c)         # BAR0 64-bit prefetchable
    c.w32(0x14, bar0 >> 32)
    c.w32(0x30, rom)                                # Expansion ROM, disabled
    c.w8(0x3d, 1 + fn)                              # INTA / INTB (cx7-pf1 shows pin B on fn 1)
    # Standard list (capture): [60] -> [48] -> [9c] -> [c0] -> [40]
    pcie_cap(c, 0x60, 0x48, 0, 3, 16, 3, 16, PF_DEVCTL)
    vpd_cap(c, 0x48, 0x9c)
    msix_cap(c, 0x9c, 0xc0, 64, True)
    vsec_cap(c, 0xc0, 0x40)
    pm_cap(c, 0x40, 0x00)
    # Extended list (capture): [100] AER -> [150] ARI -> [180] SR-IOV -> [1c0] SecPCIe
    aer_ecap(c, 0x100, 0x150)
    ari_ecap(c, 0x150, 0x180, 1 if fn == 0 else 0)
    if fn == 0:
        # VF Enable+ MSE+ ARIHierarchy+, 4 VFs, FDL 0, offset 2 stride 1
        sriov_ecap(c, 0x180, 0x1c0, 0x19, 8, 8, 4, 0, 2, 1, 0x1018, vf_bar0)
    else:
        # VF Enable- MSE- ARIHierarchy+, 0 VFs, FDL 1, offset 9 stride 1 (cx7-pf1 pattern)
        sriov_ecap(c, 0x180, 0x1c0, 0x10, 8, 8, 0, 1, 9, 1, 0x1018, vf_bar0)
    secpci_ecap(c, 0x1c0, 0x000)
    return bytes(c.b)


def mlx_vf_config(subsys_dev, lnkcap_speed, vsec=True):
    """mlx5 VF config space, per FIX:lspci-vvv/cx7-vf-15b3_101e-lspci-vvv.txt:
    Vendor/Device read 0xffff (SR-IOV spec), [60] Express -> [9c] MSI-X Count=12,
    [100] Vendor Specific ID=0000 Rev=0 Len=00c -> [150] ARI."""
    c = Cfg(4096)
    c.w16(0x00, 0xffff)
    c.w16(0x02, 0xffff)
    c.w16(0x04, 0x0004)                             # BusMaster+ (bound to mlx5_core; SYNTH)
    c.w16(0x06, STATUS_CAPLIST)
    c.w32(0x08, 0x02000000)                         # class 020000, rev 00
    c.w16(0x2c, 0x15b3)
    c.w16(0x2e, subsys_dev)
    c.w8(0x34, 0x60)
    # DevCtl all "-", MaxPayload 128, MaxReadReq 128; LnkCap = PF's; LnkSta speed unknown x0
    pcie_cap(c, 0x60, 0x9c, 0, lnkcap_speed, 16, 0, 0, 0, commclk=False, slotclk=False)
    msix_cap(c, 0x9c, 0x00, 12, True)
    c.ecap(0x100, 0x000b, 1, 0x150)
    c.w32(0x104, 0x00c << 20)                       # VSEC ID 0000 Rev 0 Len 0x00c
    ari_ecap(c, 0x150, 0x000, 0)
    return bytes(c.b)


def cx6dx_pf_config(fn, bar0, rom, vf_bar0):
    """ConnectX-6 Dx PF.  No full capture of a 6 Dx header exists: the header is
    synthesized the same way as the CX5's; the capability offsets follow
    FIX:lspci-vvv/cx6lx-pf-15b3_101f-lspci-v-unnamed-extcaps.txt exactly."""
    c = Cfg(4096)
    c.w16(0x00, 0x15b3)
    c.w16(0x02, 0x101d)
    c.w16(0x04, PF_COMMAND)
    c.w16(0x06, STATUS_CAPLIST)
    c.w32(0x08, 0x02000000)
    c.w8(0x0c, 0x08)
    c.w8(0x0e, 0x80)
    c.w32(0x10, (bar0 & 0xffffffff) | 0x0c)
    c.w32(0x14, bar0 >> 32)
    c.w16(0x2c, 0x15b3)
    c.w16(0x2e, 0x0016)                             # SYNTH subsystem id
    c.w32(0x30, rom)
    c.w8(0x34, 0x60)
    c.w8(0x3c, 0xff)
    c.w8(0x3d, 1 + fn)
    # LnkCap 16GT/s x16, LnkSta 16GT/s x8: x16 card in a x8 slot (cx7-pf1 capture shows such a downgrade)
    pcie_cap(c, 0x60, 0x48, 0, 4, 16, 4, 8, PF_DEVCTL)
    vpd_cap(c, 0x48, 0x9c)
    msix_cap(c, 0x9c, 0xc0, 64, True)
    vsec_cap(c, 0xc0, 0x40)
    pm_cap(c, 0x40, 0x00)
    aer_ecap(c, 0x100, 0x150)
    ari_ecap(c, 0x150, 0x180, 1 if fn == 0 else 0)
    # 0 VFs; ARIHierarchy+; VF DID 0x101e (REF:§5.3), offset 2 / 9, stride 1
    sriov_ecap(c, 0x180, 0x1c0, 0x10, 8, 8, 0, fn, 2 if fn == 0 else 9, 1, 0x101e, vf_bar0)
    secpci_ecap(c, 0x1c0, 0x230)
    acs_ecap(c, 0x230, 0x320)
    c.ecap(0x320, 0x0027, 1, 0x370)                 # Lane Margining at the Receiver (#27)
    c.ecap(0x370, 0x0026, 1, 0x420)                 # Physical Layer 16.0 GT/s (#26)
    c.ecap(0x420, 0x0025, 1, 0x000)                 # Data Link Feature (#25)
    c.w32(0x424, 1 | 1 << 31)                       # scaled flow control supported, exchange enable
    return bytes(c.b)


def root_port_config(did, bus, lnk_speed, lnk_width, mem, pref):
    """Intel PCIe root port (type 1 header, 256 bytes; SYNTH contents)."""
    c = Cfg(256)
    c.w16(0x00, 0x8086)
    c.w16(0x02, did)
    c.w16(0x04, 0x0547)
    c.w16(0x06, STATUS_CAPLIST)
    c.w32(0x08, 0x06040004)                         # class 060400, rev 04
    c.w8(0x0e, 0x01)                                # header type 1 (bridge)
    c.w8(0x18, bus[0])                              # primary
    c.w8(0x19, bus[1])                              # secondary
    c.w8(0x1a, bus[1])                              # subordinate
    c.w8(0x1c, 0xf0)                                # I/O window disabled (base > limit)
    c.w8(0x1d, 0x00)
    c.w16(0x20, (mem[0] >> 16) & 0xfff0)            # memory base/limit
    c.w16(0x22, (mem[1] >> 16) & 0xfff0)
    c.w16(0x24, ((pref[0] >> 16) & 0xfff0) | 1)     # prefetchable, 64-bit
    c.w16(0x26, ((pref[1] >> 16) & 0xfff0) | 1)
    c.w8(0x34, 0x40)
    c.w8(0x3c, 0xff)
    c.w8(0x3d, 1)
    pcie_cap(c, 0x40, 0x80, 4, lnk_speed, lnk_width, lnk_speed, lnk_width, 0x0020)
    pm_cap(c, 0x80, 0x00)
    return bytes(c.b)


def i350_config():
    """Intel I350 (8086:1521) port 0 (SYNTH: a small plausible capability set)."""
    c = Cfg(4096)
    c.w16(0x00, 0x8086)
    c.w16(0x02, 0x1521)
    c.w16(0x04, 0x0406)
    c.w16(0x06, STATUS_CAPLIST)
    c.w32(0x08, 0x02000001)
    c.w8(0x0e, 0x80)
    c.w32(0x10, 0xfb900000)                         # BAR0 32-bit mem
    c.w16(0x2c, 0x8086)
    c.w16(0x2e, 0x0001)
    c.w8(0x34, 0x40)
    c.w8(0x3c, 0x10)
    c.w8(0x3d, 1)
    pm_cap(c, 0x40, 0x70)
    msix_cap(c, 0x70, 0xa0, 10, True)
    pcie_cap(c, 0xa0, 0x00, 0, 2, 4, 2, 4, 0x2810)
    aer_ecap(c, 0x100, 0x000)
    return bytes(c.b)


# ---------------------------------------------------------------------------
# VPD (REF:§5.2; keyword set/order of FIX:lspci-vvv/cx5ex-pf-15b3_1019-lspci-vvv.txt)
# ---------------------------------------------------------------------------

def vpd(product, keywords):
    """0x82 identifier string, 0x90 VPD-R (keywords + RV checksum), 0x78 end.
    RV: checksum byte makes the sum of all bytes from offset 0 through it 0 mod 256,
    followed by 2 reserved zero bytes ("2 byte(s) reserved" as in the cx5ex capture)."""
    out = bytearray()
    name = product.encode()
    out += bytes([0x82]) + struct.pack("<H", len(name)) + name
    body = bytearray()
    for k, v in keywords:
        v = v.encode()
        body += k.encode() + bytes([len(v)]) + v
    body += b"RV" + bytes([3])
    out += bytes([0x90]) + struct.pack("<H", len(body) + 3) + body
    csum = (-sum(out)) & 0xff
    out += bytes([csum, 0, 0])
    out += bytes([0x78])
    assert sum(out[: len(out) - 3]) & 0xff == 0
    return bytes(out)


# ---------------------------------------------------------------------------
# sysfs writers: one function per file kind
# ---------------------------------------------------------------------------

# KERNEL drivers/pci/pcie/aer.c aer_{,un}correctable_error_string[] (6.1 names)
AER_COR = ["RxErr", "BadTLP", "BadDLLP", "Rollover", "Timeout", "NonFatalErr",
           "CorrIntErr", "HeaderOF"]
AER_UNCOR = ["Undefined", "DLP", "SDES", "TLP", "FCP", "CmpltTO", "CmpltAbrt",
             "UnxCmplt", "RxOF", "MalfTLP", "ECRC", "UnsupReq", "ACSViol",
             "UncorrIntErr", "BlockedTLP", "AtomicOpBlocked", "TLPBlockedErr",
             "PoisonTLPBlocked"]


def write_aer_files(d):
    """aer_dev_* : "Name count" per error, then TOTAL_ERR_* (KERNEL aer_stats_dev_attr)."""
    def body(names, total):
        return "".join("%s 0\n" % n for n in names) + "%s 0\n" % total
    wfile(os.path.join(d, "aer_dev_correctable"), body(AER_COR, "TOTAL_ERR_COR"), 0o444)
    wfile(os.path.join(d, "aer_dev_fatal"), body(AER_UNCOR, "TOTAL_ERR_FATAL"), 0o444)
    wfile(os.path.join(d, "aer_dev_nonfatal"), body(AER_UNCOR, "TOTAL_ERR_NONFATAL"), 0o444)


def write_resource(d, lines):
    """resource: 17 lines "start end flags" (KERNEL resource_show; PCI_NUM_RESOURCES
    = 6 BARs + ROM + 6 IOV BARs + 4 bridge windows).  lines: {index: (start, size, flags)}."""
    out = []
    for i in range(17):
        if i in lines:
            s, size, fl = lines[i]
            out.append("0x%016x 0x%016x 0x%016x\n" % (s, s + size - 1, fl))
        else:
            out.append("0x%016x 0x%016x 0x%016x\n" % (0, 0, 0))
    wfile(os.path.join(d, "resource"), "".join(out), 0o444)


# struct resource flags: IORESOURCE_MEM|PREFETCH|MEM_64|SIZEALIGN + BAR low bits 0xc
RES_MEM64_PREF = 0x14220c
RES_ROM_DISABLED = 0x46200
RES_MEM32 = 0x40200
RES_BRIDGE_MEM = 0x200
RES_BRIDGE_PREF64 = 0x102201


def write_pci_ids(d, f):
    """vendor/device/subsystem/class/revision/modalias/uevent (KERNEL pci-sysfs.c)."""
    wval(os.path.join(d, "vendor"), "0x%04x" % f["vendor"])
    wval(os.path.join(d, "device"), "0x%04x" % f["device"])
    wval(os.path.join(d, "subsystem_vendor"), "0x%04x" % f["sub_vendor"])
    wval(os.path.join(d, "subsystem_device"), "0x%04x" % f["sub_device"])
    wval(os.path.join(d, "class"), "0x%06x" % f["class"])
    wval(os.path.join(d, "revision"), "0x%02x" % f["revision"])
    cls = f["class"]
    modalias = "pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X" % (
        f["vendor"], f["device"], f["sub_vendor"], f["sub_device"],
        cls >> 16, (cls >> 8) & 0xff, cls & 0xff)
    wval(os.path.join(d, "modalias"), modalias)
    ue = ""
    if f.get("driver"):
        ue += "DRIVER=%s\n" % f["driver"]
    ue += "PCI_CLASS=%X\n" % cls
    ue += "PCI_ID=%04X:%04X\n" % (f["vendor"], f["device"])
    ue += "PCI_SUBSYS_ID=%04X:%04X\n" % (f["sub_vendor"], f["sub_device"])
    ue += "PCI_SLOT_NAME=%s\n" % f["bdf"]
    ue += "MODALIAS=%s\n" % modalias
    wfile(os.path.join(d, "uevent"), ue, 0o644)


def write_pci_misc(d, f):
    """irq, numa_node, local_cpulist, enable, link speed/width files."""
    wval(os.path.join(d, "irq"), f.get("irq", 0))
    wval(os.path.join(d, "numa_node"), f["numa"])
    wval(os.path.join(d, "local_cpulist"), f["cpulist"])
    wval(os.path.join(d, "enable"), 1, 0o644)
    wval(os.path.join(d, "current_link_speed"), SPEED_STR[f["lnksta"][0]])
    wval(os.path.join(d, "current_link_width"), f["lnksta"][1])
    wval(os.path.join(d, "max_link_speed"), SPEED_STR[f["lnkcap"][0]])
    wval(os.path.join(d, "max_link_width"), f["lnkcap"][1])


def write_sriov_pf(d, s):
    """PF SR-IOV sysfs (REF:§4.1). sriov_vf_device is "%x" without 0x (KERNEL sriov_vf_device_show)."""
    wval(os.path.join(d, "sriov_totalvfs"), s["total"])
    wval(os.path.join(d, "sriov_numvfs"), s["num"], 0o644)
    wval(os.path.join(d, "sriov_offset"), s["offset"])
    wval(os.path.join(d, "sriov_stride"), s["stride"])
    wval(os.path.join(d, "sriov_vf_device"), "%x" % s["vf_did"])
    wval(os.path.join(d, "sriov_drivers_autoprobe"), 1, 0o644)


NETDEV_STATS = ["collisions", "multicast", "rx_bytes", "rx_compressed", "rx_crc_errors",
                "rx_dropped", "rx_errors", "rx_fifo_errors", "rx_frame_errors",
                "rx_length_errors", "rx_missed_errors", "rx_nohandler", "rx_over_errors",
                "rx_packets", "tx_aborted_errors", "tx_bytes", "tx_carrier_errors",
                "tx_compressed", "tx_dropped", "tx_errors", "tx_fifo_errors",
                "tx_heartbeat_errors", "tx_packets", "tx_window_errors"]


def write_netdev_stats(nd, seed, up):
    """statistics/ (KERNEL net-sysfs.c netstat_attrs). SYNTH plausible values."""
    v = dict((k, 0) for k in NETDEV_STATS)
    if up:
        v.update(rx_packets=1234567 * seed, tx_packets=1134567 * seed,
                 rx_bytes=1234567 * seed * 1024, tx_bytes=1134567 * seed * 1100,
                 multicast=4321 * seed, rx_dropped=3 * seed)
    for k in NETDEV_STATS:
        wval(os.path.join(nd, "statistics", k), v[k])


def write_netdev(devdir, n):
    """<BDF>/net/<ifname>/ (KERNEL net-sysfs.c).  Returns the netdev dir."""
    nd = os.path.join(devdir, "net", n["name"])
    up = n["up"]
    wval(os.path.join(nd, "address"), n["mac"])
    wval(os.path.join(nd, "addr_len"), 6)
    wval(os.path.join(nd, "broadcast"), "ff:ff:ff:ff:ff:ff")
    wval(os.path.join(nd, "operstate"), "up" if up else "down")
    wval(os.path.join(nd, "carrier"), 1 if up else 0, 0o644)
    wval(os.path.join(nd, "speed"), n["speed"] if up else -1)
    wval(os.path.join(nd, "duplex"), "full" if up else "unknown")
    wval(os.path.join(nd, "mtu"), n.get("mtu", 1500), 0o644)
    wval(os.path.join(nd, "ifindex"), n["ifindex"])
    wval(os.path.join(nd, "iflink"), n["ifindex"])
    wval(os.path.join(nd, "dev_port"), 0)
    wval(os.path.join(nd, "dev_id"), "0x0")
    wval(os.path.join(nd, "type"), 1)
    wval(os.path.join(nd, "tx_queue_len"), 1000, 0o644)
    wval(os.path.join(nd, "flags"), "0x1003", 0o644)   # IFF_UP|BROADCAST|MULTICAST (admin up)
    if n.get("phys_port_name"):
        wval(os.path.join(nd, "phys_port_name"), n["phys_port_name"])
    symlink(os.path.join(nd, "device"), "../../../" + os.path.basename(devdir))
    write_netdev_stats(nd, n["ifindex"], up)
    return nd


# REF:§1.1 defaults (DOCA page; rpg_max_rate/min_time/cnp_* UNVERIFIED there)
RP_DEFAULTS = [
    ("clamp_tgt_rate", 0), ("clamp_tgt_rate_after_time_inc", 1),
    ("rpg_time_reset", 300), ("rpg_byte_reset", 32767), ("rpg_threshold", 1),
    ("rpg_max_rate", 0), ("rpg_ai_rate", 5), ("rpg_hai_rate", 50), ("rpg_gd", 11),
    ("rpg_min_dec_fac", 50), ("rpg_min_rate", 1), ("rate_to_set_on_first_cnp", 0),
    ("dce_tcp_g", 1019), ("dce_tcp_rtt", 1), ("rate_reduce_monitor_period", 4),
    ("initial_alpha_value", 1023)]
NP_DEFAULTS = [("min_time_between_cnps", 4), ("cnp_dscp", 48), ("cnp_802p_prio", 6)]
ROCE_PRIO = 3  # SYNTH: typical RoCE set-up, DCQCN enabled on priority 3 only


def write_ofed_ecn(nd):
    """OFED ecn/ tree (REF:§1.2): mode 0644 on PFs, "%d\\n"."""
    for proto, params in (("roce_rp", RP_DEFAULTS), ("roce_np", NP_DEFAULTS)):
        base = os.path.join(nd, "ecn", proto)
        for prio in range(8):
            wfile(os.path.join(base, "enable", str(prio)),
                  "%d\n" % (1 if prio == ROCE_PRIO else 0), 0o644)
        for name, val in params:
            wfile(os.path.join(base, name), "%d\n" % val, 0o644)


def write_ofed_qos(nd, port_buf, bufs, prio2buf):
    """OFED qos/ (REF:§2.5): tc_num, maxrate, prio2buffer, buffer_size formats."""
    q = os.path.join(nd, "qos")
    wfile(os.path.join(q, "tc_num"), "8\n", 0o644)
    wfile(os.path.join(q, "maxrate"), " ".join(["0"] * 8) + "\n", 0o644)
    p2b = "Priority\tBuffer\n" + "".join("%d\t\t%d\n" % (p, prio2buf[p]) for p in range(8))
    wfile(os.path.join(q, "prio2buffer"), p2b, 0o644)
    spare = port_buf - sum(b[0] for b in bufs)
    bs = "Port buffer size = %d\nSpare buffer size = %d\n" % (port_buf, spare)
    bs += "Buffer\tSize\txoff_threshold\txon_threshold\n"
    bs += "".join("%d\t%d\t%d\t\t%d\n" % (i, b[0], b[1], b[2]) for i, b in enumerate(bufs))
    wfile(os.path.join(q, "buffer_size"), bs, 0o644)


# REF:§3.3 groups 1-7 (+ lifespan), REF:§3.4 counters
HW_COUNTERS = [
    "rx_write_requests", "rx_read_requests", "rx_atomic_requests", "rx_dct_connect",
    "out_of_buffer", "out_of_sequence", "duplicate_request", "rnr_nak_retry_err",
    "packet_seq_err", "implied_nak_seq_err", "local_ack_timeout_err",
    "resp_local_length_error", "resp_cqe_error", "req_cqe_error",
    "req_remote_invalid_request", "req_remote_access_errors",
    "resp_remote_access_errors", "resp_cqe_flush_error", "req_cqe_flush_error",
    "req_transport_retries_exceeded", "req_rnr_retries_exceeded",
    "roce_adp_retrans", "roce_adp_retrans_to", "roce_slow_restart",
    "roce_slow_restart_cnps", "roce_slow_restart_trans", "rp_cnp_ignored",
    "rp_cnp_handled", "np_ecn_marked_roce_packets", "np_cnp_sent", "rx_icrc_encapsulated"]
IB_COUNTERS = [
    "symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
    "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors",
    "port_xmit_discards", "port_xmit_constraint_errors", "port_rcv_constraint_errors",
    "local_link_integrity_errors", "excessive_buffer_overrun_errors", "VL15_dropped",
    "port_xmit_data", "port_rcv_data", "port_xmit_packets", "port_rcv_packets",
    "port_xmit_wait", "unicast_xmit_packets", "unicast_rcv_packets",
    "multicast_xmit_packets", "multicast_rcv_packets"]
# SYNTH non-zero counter values on an up port carrying RoCE traffic
HW_NONZERO = {"rx_write_requests": 52341, "rx_read_requests": 1207, "out_of_sequence": 12,
              "local_ack_timeout_err": 2, "rp_cnp_handled": 341, "np_ecn_marked_roce_packets": 977,
              "np_cnp_sent": 402, "roce_adp_retrans": 5}
IB_NONZERO = {"port_xmit_data": 287654321, "port_rcv_data": 312345678,
              "port_xmit_packets": 1134567, "port_rcv_packets": 1234567,
              "unicast_xmit_packets": 1130246, "unicast_rcv_packets": 1230246,
              "multicast_xmit_packets": 4321, "multicast_rcv_packets": 4321}


def mac_to_gid(mac):
    """Link-local GID from the MAC (EUI-64, U/L bit flipped), sysfs %pI6 form."""
    b = [int(x, 16) for x in mac.split(":")]
    e = [b[0] ^ 2, b[1], b[2], 0xff, 0xfe, b[3], b[4], b[5]]
    return "fe80:0000:0000:0000:" + ":".join("%02x%02x" % (e[i], e[i + 1]) for i in range(0, 8, 2))


def write_ib_port(port, ib, up):
    """ports/1/ (REF:§3.4 port attrs; RoCE port: lid 0, link_layer Ethernet)."""
    wval(os.path.join(port, "state"), "4: ACTIVE" if up else "1: DOWN")
    wval(os.path.join(port, "phys_state"), "5: LinkUp" if up else "3: Disabled")
    # Down RoCE port: mlx5_query_port_roce() defaults (4X QDR) (from memory, UNVERIFIED)
    wval(os.path.join(port, "rate"), "100 Gb/sec (4X EDR)" if up else "40 Gb/sec (4X QDR)")
    wval(os.path.join(port, "link_layer"), "Ethernet")
    wval(os.path.join(port, "lid"), "0x0")
    wval(os.path.join(port, "lid_mask_count"), 0)
    wval(os.path.join(port, "sm_lid"), "0x0")
    wval(os.path.join(port, "sm_sl"), 0)
    wval(os.path.join(port, "cap_mask"), "0x04010000")  # CM_SUP|IP_BASED_GIDS (UNVERIFIED)
    wval(os.path.join(port, "has_smi"), 0)
    gid = mac_to_gid(ib["mac"])
    for idx, typ in ((0, "IB/RoCE v1"), (1, "RoCE v2")):
        wval(os.path.join(port, "gids", str(idx)), gid)
        wval(os.path.join(port, "gid_attrs", "ndevs", str(idx)), ib["netdev"])
        wval(os.path.join(port, "gid_attrs", "types", str(idx)), typ)
    for name in HW_COUNTERS:
        wval(os.path.join(port, "hw_counters", name), HW_NONZERO.get(name, 0) if up else 0)
    wval(os.path.join(port, "hw_counters", "lifespan"), 10, 0o644)
    for name in IB_COUNTERS:
        wval(os.path.join(port, "counters", name), IB_NONZERO.get(name, 0) if up else 0)


def write_ib_device(devdir, ib, up):
    """<BDF>/infiniband/<mlx5_N>/ (REF:§3.4 device attrs)."""
    d = os.path.join(devdir, "infiniband", ib["name"])
    wval(os.path.join(d, "fw_ver"), ib["fw_ver"])
    wval(os.path.join(d, "board_id"), ib["board_id"])
    wval(os.path.join(d, "hca_type"), ib["hca_type"])
    wval(os.path.join(d, "hw_rev"), "0x0")
    wval(os.path.join(d, "node_guid"), ib["node_guid"])
    wval(os.path.join(d, "sys_image_guid"), ib["sys_image_guid"])
    wval(os.path.join(d, "node_type"), "1: CA")
    wval(os.path.join(d, "node_desc"), ib["node_desc"], 0o644)
    wval(os.path.join(d, "fw_pages"), ib["fw_pages"])
    wval(os.path.join(d, "reg_pages"), 0)
    symlink(os.path.join(d, "device"), "../../../" + os.path.basename(devdir))
    write_ib_port(os.path.join(d, "ports", "1"), ib, up)
    return d


# Upstream debugfs cc_params (REF:§1.3), enum order; defaults REF:§1.1
CC_PARAMS = [
    ("rp_clamp_tgt_rate", 0), ("rp_clamp_tgt_rate_ati", 1), ("rp_time_reset", 300),
    ("rp_byte_reset", 32767), ("rp_threshold", 1), ("rp_ai_rate", 5), ("rp_max_rate", 0),
    ("rp_hai_rate", 50), ("rp_min_dec_fac", 50), ("rp_min_rate", 1),
    ("rp_rate_to_set_on_first_cnp", 0), ("rp_dce_tcp_g", 1019), ("rp_dce_tcp_rtt", 1),
    ("rp_rate_reduce_monitor_period", 4), ("rp_initial_alpha_value", 1023), ("rp_gd", 11),
    ("np_min_time_between_cnps", 4), ("np_cnp_dscp", 48), ("np_cnp_prio_mode", 0),
    ("np_cnp_prio", 6), ("rtt_resp_dscp_valid", 0), ("rtt_resp_dscp", 0)]


def write_cc_params(root, bdf):
    d = os.path.join(root, "sys", "kernel", "debug", "mlx5", bdf, "cc_params")
    for name, val in CC_PARAMS:
        wfile(os.path.join(d, name), "%u\n" % val, 0o600)


# ---------------------------------------------------------------------------
# Host assembly
# ---------------------------------------------------------------------------

def write_function(root, f):
    """One PCI function: its directory, files, links, children."""
    d = os.path.join(root, "sys", f["path"])
    os.makedirs(d, exist_ok=True)
    write_pci_ids(d, f)
    write_pci_misc(d, f)
    wfile(os.path.join(d, "config"), f["config"], 0o644)
    write_resource(d, f["resource"])
    if f.get("aer"):
        write_aer_files(d)
    if f.get("vpd"):
        wfile(os.path.join(d, "vpd"), f["vpd"], 0o600)
    if f.get("sriov"):
        write_sriov_pf(d, f["sriov"])
    if f.get("driver"):
        drv = os.path.join(root, "sys", "bus", "pci", "drivers", f["driver"])
        os.makedirs(drv, exist_ok=True)
        symlink(os.path.join(d, "driver"), rel(d, drv))
    for i, vf in enumerate(f.get("virtfn", [])):
        symlink(os.path.join(d, "virtfn%d" % i), "../" + vf)
    if f.get("physfn"):
        symlink(os.path.join(d, "physfn"), "../" + f["physfn"])
    bus_link = os.path.join(root, "sys", "bus", "pci", "devices", f["bdf"])
    symlink(bus_link, rel(os.path.dirname(bus_link), d))
    for n in f.get("netdevs", []):
        nd = write_netdev(d, n)
        if n.get("ofed"):
            write_ofed_ecn(nd)
            write_ofed_qos(nd, *n["ofed_qos"])
        cl = os.path.join(root, "sys", "class", "net", n["name"])
        symlink(cl, rel(os.path.dirname(cl), nd))
    if f.get("ib"):
        up = f["netdevs"][0]["up"]
        ibd = write_ib_device(d, f["ib"], up)
        cl = os.path.join(root, "sys", "class", "infiniband", f["ib"]["name"])
        symlink(cl, rel(os.path.dirname(cl), ibd))
    if f.get("cc_params"):
        write_cc_params(root, f["bdf"])
        # the upstream host's debugfs: command statistics too (issue 7 follow-up)
        write_cmd_stats(root, f["bdf"], 1 + int(f["bdf"][-1]))


def write_loopback(root):
    """lo: a non-PCI netdev (type 772, no device link) the tool must ignore."""
    nd = os.path.join(root, "sys", "devices", "virtual", "net", "lo")
    wval(os.path.join(nd, "address"), "00:00:00:00:00:00")
    wval(os.path.join(nd, "addr_len"), 6)
    wval(os.path.join(nd, "operstate"), "unknown")
    wval(os.path.join(nd, "carrier"), 1)
    wval(os.path.join(nd, "mtu"), 65536)
    wval(os.path.join(nd, "ifindex"), 1)
    wval(os.path.join(nd, "iflink"), 1)
    wval(os.path.join(nd, "type"), 772)
    wval(os.path.join(nd, "flags"), "0x9")
    cl = os.path.join(root, "sys", "class", "net", "lo")
    symlink(cl, rel(os.path.dirname(cl), nd))


def write_snapshot_meta(root, hostname, kernel):
    meta = {"schema_version": 1, "format": "mlxcli-sysroot", "format_version": 1,
            "mlxcli_version": "0.1.0", "captured_at": CAPTURED_AT,
            "hostname": hostname, "kernel": kernel,
            "source": "synthetic sample host built from captured facts; see README.md"}
    wfile(os.path.join(root, "mlxcli-snapshot.json"),
          json.dumps(meta, indent=2, sort_keys=True) + "\n", 0o644)


def write_netlink_readme(root):
    wfile(os.path.join(root, "netlink", "README"),
          "Captured netlink replies live here as netlink/<family>/<object>/<request>.nl (later features).\n",
          0o644)


def common_functions(cpulist):
    """Intel root port 0000:00:1c.0 (C620 PCH, 8086:a190) with an I350 (8086:1521)
    behind it as eno1: non-Mellanox functions the tool must list-and-ignore (SYNTH)."""
    rp_path = "devices/pci0000:00/0000:00:1c.0"
    rp = dict(bdf="0000:00:1c.0", path=rp_path, vendor=0x8086, device=0xa190,
              sub_vendor=0x8086, sub_device=0x7270, **{"class": 0x060400}, revision=0xf9,
              driver="pcieport", numa=0, cpulist=cpulist, irq=24, lnkcap=(2, 4), lnksta=(2, 4),
              config=root_port_config(0xa190, (0x00, 0x01), 2, 4,
                                      (0xfb900000, 0xfb9fffff), (0, 0)),
              resource={14: (0xfb900000, 0x100000, RES_BRIDGE_MEM)})
    nic = dict(bdf="0000:01:00.0", path=rp_path + "/0000:01:00.0", vendor=0x8086, device=0x1521,
               sub_vendor=0x8086, sub_device=0x0001, **{"class": 0x020000}, revision=0x01,
               driver="igb", numa=0, cpulist=cpulist, irq=16, lnkcap=(2, 4), lnksta=(2, 4),
               config=i350_config(), aer=True,
               resource={0: (0xfb900000, 0x100000, RES_MEM32)},
               netdevs=[dict(name="eno1", mac="02:86:00:01:00:00", up=True, speed=1000,
                             ifindex=2)])
    return [rp, nic]


def build_cx5_ofed(root):
    host = "cx5-ofed-sample"
    numa, cpus = 1, "20-39,60-79"                     # SYNTH: NUMA node 1 of a 2x20-core Xeon
    rp_path = "devices/pci0000:5d/0000:5d:00.0"
    fns = common_functions("0-19,40-59")
    # Sky Lake-E root port A (8086:2030, pci.ids), Gen3 x16, bus 5d -> 5e (SYNTH)
    fns.append(dict(bdf="0000:5d:00.0", path=rp_path, vendor=0x8086, device=0x2030,
                    sub_vendor=0x8086, sub_device=0x0000, **{"class": 0x060400}, revision=0x04,
                    driver="pcieport", numa=numa, cpulist=cpus, irq=26, lnkcap=(3, 16),
                    lnksta=(3, 16),
                    config=root_port_config(0x2030, (0x5d, 0x5e), 3, 16,
                                            (0xfbd00000, 0xfbefffff), (0xf5000000, 0xf9ffffff)),
                    resource={14: (0xfbd00000, 0x200000, RES_BRIDGE_MEM),
                              15: (0xf5000000, 0x5000000, RES_BRIDGE_PREF64)}))
    fw, board = "16.35.2000", "MT_0000000008"
    pf_mac = ["02:c5:00:5e:00:00", "02:c5:00:5e:00:01"]
    sys_guid = "02c5:0003:005e:0000"
    # qos/ buffers (SYNTH): lossy buffer 0 for all prios but 3; lossless buffer 1 for prio 3
    qos = (262016, [(130944, 0, 0), (130944, 80768, 60928)] + [(0, 0, 0)] * 6,
           [0, 0, 0, 1, 0, 0, 0, 0])
    pf = [(0xf8000000, 0xfbe00000, 0xf5000000), (0xf6000000, 0xfbd00000, 0xf5800000)]
    vfs = ["0000:5e:00.%d" % i for i in range(2, 6)]
    for fn in (0, 1):
        bdf = "0000:5e:00.%d" % fn
        bar0, rom, vfbar = pf[fn]
        up = fn == 0
        ifname = "enp94s0f%dnp%d" % (fn, fn)
        fns.append(dict(
            bdf=bdf, path=rp_path + "/" + bdf, vendor=0x15b3, device=0x1017,
            sub_vendor=0x15b3, sub_device=0x0080, **{"class": 0x020000}, revision=0x00,
            driver="mlx5_core", numa=numa, cpulist=cpus, irq=33 + fn,
            lnkcap=(3, 16), lnksta=(3, 16), aer=True,
            config=cx5_pf_config(fn, bar0, rom, vfbar),
            vpd=vpd("CX556A - ConnectX-5 QSFP28", [
                ("PN", "MCX556A-ECAT"), ("EC", "AA"), ("V2", "MCX556A-ECAT"),
                ("SN", "MT0000XSAMPLE"), ("V3", "00000000000000008000000000005a01"),
                ("VA", "MLX:MODL=CX556A:MN=MLNX:CSKU=V2:UUID=V3:PCI=V0"),
                ("V0", "PCIeGen3 x16")]),
            resource={0: (bar0, 0x2000000, RES_MEM64_PREF), 6: (rom, 0x100000, RES_ROM_DISABLED),
                      7: (vfbar, 0x800000, RES_MEM64_PREF)},
            sriov=dict(total=8, num=4 if fn == 0 else 0, offset=2 if fn == 0 else 9,
                       stride=1, vf_did=0x1018),
            virtfn=vfs if fn == 0 else [],
            netdevs=[dict(name=ifname, mac=pf_mac[fn], up=up, speed=100000, ifindex=4 + fn,
                          phys_port_name="p%d" % fn, ofed=True, ofed_qos=qos)],
            ib=dict(name="mlx5_%d" % fn, fw_ver=fw, board_id=board, hca_type="MT4119",
                    node_guid="02c5:0003:005e:%04x" % fn, sys_image_guid=sys_guid,
                    node_desc="%s mlx5_%d" % (host, fn), fw_pages=12345 + fn,
                    mac=pf_mac[fn], netdev=ifname)))
    for i, bdf in enumerate(vfs):
        fnum = i + 2
        mac = "02:c5:00:5e:01:%02x" % fnum
        ifname = "enp94s0f%d" % fnum
        fns.append(dict(
            bdf=bdf, path=rp_path + "/" + bdf, vendor=0x15b3, device=0x1018,
            sub_vendor=0x15b3, sub_device=0x0080, **{"class": 0x020000}, revision=0x00,
            driver="mlx5_core", numa=numa, cpulist=cpus, irq=0,
            lnkcap=(3, 16), lnksta=(0, 0),
            config=mlx_vf_config(0x0080, 3),
            resource={0: (0xf5000000 + i * 0x100000, 0x100000, RES_MEM64_PREF)},
            physfn="0000:5e:00.0",
            netdevs=[dict(name=ifname, mac=mac, up=True, speed=100000, ifindex=6 + i)],
            ib=dict(name="mlx5_%d" % fnum, fw_ver=fw, board_id=board, hca_type="MT4120",
                    node_guid="0000:0000:0000:0000", sys_image_guid=sys_guid,
                    node_desc="%s mlx5_%d" % (host, fnum), fw_pages=2048,
                    mac=mac, netdev=ifname)))
    write_host(root, host, "5.15.0-91-generic", fns)


def build_cx6dx_upstream(root):
    host = "cx6dx-upstream-sample"
    numa, cpus = 0, "0-19,40-59"
    rp_path = "devices/pci0000:3a/0000:3a:00.0"
    fns = common_functions(cpus)
    # Ice Lake-SP root port (8086:347a, from memory, UNVERIFIED), Gen4 slot wired x8
    fns.append(dict(bdf="0000:3a:00.0", path=rp_path, vendor=0x8086, device=0x347a,
                    sub_vendor=0x8086, sub_device=0x0000, **{"class": 0x060400}, revision=0x04,
                    driver="pcieport", numa=numa, cpulist=cpus, irq=27, lnkcap=(4, 8),
                    lnksta=(4, 8),
                    config=root_port_config(0x347a, (0x3a, 0x3b), 4, 8,
                                            (0xab000000, 0xab1fffff), (0xa0000000, 0xa5ffffff)),
                    resource={14: (0xab000000, 0x200000, RES_BRIDGE_MEM),
                              15: (0xa0000000, 0x6000000, RES_BRIDGE_PREF64)}))
    fw, board = "22.39.1002", "MT_0000000359"
    pf_mac = ["02:c6:00:3b:00:00", "02:c6:00:3b:00:01"]
    pf = [(0xa4000000, 0xab100000, 0xa0000000), (0xa2000000, 0xab000000, 0xa1000000)]
    for fn in (0, 1):
        bdf = "0000:3b:00.%d" % fn
        bar0, rom, vfbar = pf[fn]
        ifname = "enp59s0f%dnp%d" % (fn, fn)
        fns.append(dict(
            bdf=bdf, path=rp_path + "/" + bdf, vendor=0x15b3, device=0x101d,
            sub_vendor=0x15b3, sub_device=0x0016, **{"class": 0x020000}, revision=0x00,
            driver="mlx5_core", numa=numa, cpulist=cpus, irq=40 + fn,
            lnkcap=(4, 16), lnksta=(4, 8), aer=True,
            config=cx6dx_pf_config(fn, bar0, rom, vfbar),
            vpd=vpd("Nvidia ConnectX-6 Dx EN adapter card, 100GbE, Dual-port QSFP56, PCIe 4.0 x16", [
                ("PN", "MCX623106AN-CDAT"), ("EC", "A6"), ("V2", "MCX623106AN-CDAT"),
                ("SN", "MT0000XSAMPLE"), ("V3", "00000000000000008000000000006d01"),
                ("VA", "MLX:MN=MLNX:CSKU=V2:UUID=V3:PCI=V0:MODL=CX623106A"),
                ("V0", "PCIeGen4 x16"), ("VU", "MT0000XSAMPLEMLNXS0D0F%d" % fn)]),
            resource={0: (bar0, 0x2000000, RES_MEM64_PREF), 6: (rom, 0x100000, RES_ROM_DISABLED),
                      7: (vfbar, 0x1000000, RES_MEM64_PREF)},
            sriov=dict(total=8, num=0, offset=2 if fn == 0 else 9, stride=1, vf_did=0x101e),
            netdevs=[dict(name=ifname, mac=pf_mac[fn], up=True, speed=100000, ifindex=4 + fn,
                          phys_port_name="p%d" % fn)],
            ib=dict(name="mlx5_%d" % fn, fw_ver=fw, board_id=board, hca_type="MT4125",
                    node_guid="02c6:0003:003b:%04x" % fn, sys_image_guid="02c6:0003:003b:0000",
                    node_desc="%s mlx5_%d" % (host, fn), fw_pages=23456 + fn,
                    mac=pf_mac[fn], netdev=ifname),
            cc_params=True))
    write_host(root, host, "6.1.0-17-amd64", fns)


# ---------------------------------------------------------------------------
# Captured netlink replies (netlink/<family>/<object>/<request>.nl), the raw
# reply messages as the kernel sends them, laid out with struct.pack exactly
# per the UAPI headers (include/uapi/linux/{netlink,rtnetlink,if_link,
# genetlink,devlink}.h; numbers REF:§0.1).  Read back by mlxcli sriov/fw.
# ---------------------------------------------------------------------------

NLMSG_HDRLEN = 16
RTM_NEWLINK = 16
IFLA_ADDRESS, IFLA_BROADCAST, IFLA_IFNAME, IFLA_MTU = 1, 2, 3, 4
IFLA_TXQLEN, IFLA_OPERSTATE, IFLA_LINKMODE = 13, 16, 17
IFLA_NUM_VF, IFLA_VFINFO_LIST = 21, 22
IFLA_VF_INFO = 1
(IFLA_VF_MAC, IFLA_VF_VLAN, IFLA_VF_TX_RATE, IFLA_VF_SPOOFCHK, IFLA_VF_LINK_STATE,
 IFLA_VF_RATE, IFLA_VF_RSS_QUERY_EN, IFLA_VF_STATS, IFLA_VF_TRUST) = range(1, 10)
IFLA_VF_VLAN_LIST, IFLA_VF_BROADCAST, IFLA_VF_VLAN_INFO = 12, 13, 1
VF_STATS_ORDER = [0, 1, 2, 3, 4, 5, 7, 8]   # IFLA_VF_STATS_*; 6 is PAD (not needed on x86-64)
DEVLINK_CMD_ESWITCH_GET, DEVLINK_CMD_INFO_GET = 29, 51
DEVLINK_ATTR_BUS_NAME, DEVLINK_ATTR_DEV_NAME = 1, 2
DEVLINK_ATTR_ESWITCH_MODE, DEVLINK_ATTR_ESWITCH_INLINE_MODE = 25, 26
DEVLINK_ATTR_ESWITCH_ENCAP_MODE = 62
DEVLINK_ATTR_INFO_DRIVER_NAME = 98
DEVLINK_ATTR_INFO_VERSION_FIXED, DEVLINK_ATTR_INFO_VERSION_RUNNING = 100, 101
DEVLINK_ATTR_INFO_VERSION_STORED, DEVLINK_ATTR_INFO_VERSION_NAME = 102, 103
DEVLINK_ATTR_INFO_VERSION_VALUE = 104
DEVLINK_GENL_ID = 0x14   # SYNTH: generic-netlink ids are assigned at run time
NL_PID = 4242            # SYNTH: the requesting socket's port id


def nla(t, payload):
    """struct nlattr {u16 nla_len; u16 nla_type} + payload, padded to 4."""
    b = struct.pack("<HH", 4 + len(payload), t) + payload
    return b + b"\0" * ((4 - len(b) % 4) % 4)


def nla_str(t, s):
    return nla(t, s.encode() + b"\0")


def nlmsg(mtype, flags, body, seq=1):
    """struct nlmsghdr {u32 len; u16 type; u16 flags; u32 seq; u32 pid} + body."""
    return struct.pack("<IHHII", NLMSG_HDRLEN + len(body), mtype, flags, seq, NL_PID) + body


def mac_bytes(mac):
    return bytes(int(x, 16) for x in mac.split(":"))


# VF settings of cx5-ofed PF0 (SYNTH, a typical multi-tenant set-up):
# (vlan, qos, min_rate, max_rate, spoofchk, trust, link_state)
CX5_VF_CONFIG = [(0, 0, 0, 0, 1, 0, 0), (100, 0, 0, 0, 1, 0, 0),
                 (200, 3, 1000, 10000, 1, 0, 0), (0, 0, 0, 25000, 0, 1, 1)]


def vf_info(idx, mac, cfg, stats):
    """One IFLA_VF_INFO nest in rtnl_fill_vfinfo() order (KERNEL net/core/rtnetlink.c)."""
    vlan, qos, mn, mx, spoof, trust, state = cfg
    b = nla(IFLA_VF_MAC, struct.pack("<I", idx) + mac_bytes(mac) + b"\0" * 26)
    b += nla(IFLA_VF_BROADCAST, b"\xff" * 6 + b"\0" * 26)
    b += nla(IFLA_VF_VLAN, struct.pack("<III", idx, vlan, qos))
    b += nla(IFLA_VF_RATE, struct.pack("<III", idx, mn, mx))
    b += nla(IFLA_VF_TX_RATE, struct.pack("<II", idx, mx))
    b += nla(IFLA_VF_SPOOFCHK, struct.pack("<II", idx, spoof))
    b += nla(IFLA_VF_LINK_STATE, struct.pack("<II", idx, state))
    b += nla(IFLA_VF_RSS_QUERY_EN, struct.pack("<II", idx, 0))
    b += nla(IFLA_VF_TRUST, struct.pack("<II", idx, trust))
    # struct ifla_vf_vlan_info {u32 vf, vlan, qos; __be16 vlan_proto} (+2 bytes tail padding)
    b += nla(IFLA_VF_VLAN_LIST, nla(IFLA_VF_VLAN_INFO,
                                    struct.pack("<III", idx, vlan, qos) + struct.pack(">H", 0x8100) + b"\0\0"))
    b += nla(IFLA_VF_STATS, b"".join(nla(t, struct.pack("<Q", v)) for t, v in zip(VF_STATS_ORDER, stats)))
    return nla(IFLA_VF_INFO, b)


def rtm_newlink(n, vfs):
    """RTM_NEWLINK for `ip link show DEV` with IFLA_EXT_MASK=RTEXT_FILTER_VF."""
    up = n["up"]
    flags = 0x11043 if up else 0x1003      # IFF_UP|BROADCAST|MULTICAST (+RUNNING|LOWER_UP)
    body = struct.pack("<BBHiII", 0, 0, 1, n["ifindex"], flags, 0)   # ifinfomsg, ARPHRD_ETHER
    body += nla_str(IFLA_IFNAME, n["name"])
    body += nla(IFLA_TXQLEN, struct.pack("<I", 1000))
    body += nla(IFLA_OPERSTATE, struct.pack("<B", 6 if up else 2))   # IF_OPER_UP / DOWN
    body += nla(IFLA_LINKMODE, struct.pack("<B", 0))
    body += nla(IFLA_MTU, struct.pack("<I", n.get("mtu", 1500)))
    body += nla(IFLA_ADDRESS, mac_bytes(n["mac"]))
    body += nla(IFLA_BROADCAST, b"\xff" * 6)
    body += nla(IFLA_NUM_VF, struct.pack("<I", len(vfs)))
    if vfs:
        body += nla(IFLA_VFINFO_LIST, b"".join(vfs))
    return nlmsg(RTM_NEWLINK, 0, body)


def genl(cmd, attrs):
    """struct genlmsghdr {u8 cmd; u8 version; u16 reserved} + attributes."""
    return nlmsg(DEVLINK_GENL_ID, 0, struct.pack("<BBH", cmd, 1, 0) + attrs)


def devlink_info(bdf, fw_running, fw_stored, psid):
    """mlx5_devlink_info_get(): driver, fixed fw.psid, running/stored fw.version and fw."""
    def ver(kind, name, value):
        return nla(kind, nla_str(DEVLINK_ATTR_INFO_VERSION_NAME, name) +
                   nla_str(DEVLINK_ATTR_INFO_VERSION_VALUE, value))
    a = nla_str(DEVLINK_ATTR_BUS_NAME, "pci") + nla_str(DEVLINK_ATTR_DEV_NAME, bdf)
    a += nla_str(DEVLINK_ATTR_INFO_DRIVER_NAME, "mlx5_core")
    a += ver(DEVLINK_ATTR_INFO_VERSION_FIXED, "fw.psid", psid)
    for kind, v in ((DEVLINK_ATTR_INFO_VERSION_RUNNING, fw_running),
                    (DEVLINK_ATTR_INFO_VERSION_STORED, fw_stored)):
        a += ver(kind, "fw.version", v) + ver(kind, "fw", v)
    return genl(DEVLINK_CMD_INFO_GET, a)


def devlink_eswitch(bdf, mode):
    a = nla_str(DEVLINK_ATTR_BUS_NAME, "pci") + nla_str(DEVLINK_ATTR_DEV_NAME, bdf)
    a += nla(DEVLINK_ATTR_ESWITCH_MODE, struct.pack("<H", mode))
    a += nla(DEVLINK_ATTR_ESWITCH_INLINE_MODE, struct.pack("<B", 0))
    a += nla(DEVLINK_ATTR_ESWITCH_ENCAP_MODE, struct.pack("<B", 1))
    return genl(DEVLINK_CMD_ESWITCH_GET, a)


# Stored (flashed, not yet running) firmware per host: SYNTH.  cx6dx-upstream
# has a newer image waiting for a reset; cx5-ofed runs what is flashed.
STORED_FW = {"cx6dx-upstream-sample": "22.41.1000"}


def write_netlink(root, hostname, fns):
    nldir = os.path.join(root, "netlink")
    for f in sorted(fns, key=lambda f: f["bdf"]):
        if f["vendor"] != 0x15b3 or f.get("physfn") or not f.get("netdevs"):
            continue
        n = f["netdevs"][0]
        vfs = []
        vf_fns = sorted((g for g in fns if g.get("physfn") == f["bdf"]), key=lambda g: g["bdf"])
        for i, g in enumerate(vf_fns):
            gn = g["netdevs"][0]
            seed = gn["ifindex"]     # the VF netdev's statistics/ seed (write_netdev_stats)
            # The eswitch's view of the VF: what the VF netdev received/sent.
            stats = [1234567 * seed, 1134567 * seed, 1234567 * seed * 1024, 1134567 * seed * 1100,
                     0, 4321 * seed, 3 * seed, 0]
            vfs.append(vf_info(i, gn["mac"], CX5_VF_CONFIG[i % len(CX5_VF_CONFIG)], stats))
        wfile(os.path.join(nldir, "route", n["name"], "getlink-vf.nl"), rtm_newlink(n, vfs), 0o644)
        ib = f["ib"]
        obj = "pci:" + f["bdf"]
        wfile(os.path.join(nldir, "devlink", obj, "info-get.nl"),
              devlink_info(f["bdf"], ib["fw_ver"], STORED_FW.get(hostname, ib["fw_ver"]),
                           ib["board_id"]), 0o644)
        wfile(os.path.join(nldir, "devlink", obj, "eswitch-get.nl"),
              devlink_eswitch(f["bdf"], 0), 0o644)


# ---------------------------------------------------------------------------
# DCB (issue 4): the replies `mlxcli snapshot` records for each PF netdev,
# netlink/route/<ifname>/{ieee-get,gdcbx}.nl, laid out per
# include/uapi/linux/dcbnl.h and in net/dcb/dcbnl.c dcbnl_ieee_fill() order:
# struct dcbmsg, DCB_ATTR_IFNAME, the DCB_ATTR_IEEE nest (ETS, MAXRATE, PFC,
# DCB_BUFFER, APP_TABLE), DCB_ATTR_DCBX.  mlx5 reports 100 as the bandwidth
# of strict/vendor TCs and the cable length in pfc.delay (en_dcbnl.c).
# ---------------------------------------------------------------------------

RTM_GETDCB = 78
DCB_CMD_IEEE_GET, DCB_CMD_GDCBX = 21, 22
DCB_ATTR_IFNAME, DCB_ATTR_IEEE, DCB_ATTR_DCBX = 1, 13, 14
DCB_ATTR_IEEE_ETS, DCB_ATTR_IEEE_PFC, DCB_ATTR_IEEE_APP_TABLE = 1, 2, 3
DCB_ATTR_IEEE_MAXRATE, DCB_ATTR_IEEE_APP, DCB_ATTR_DCB_BUFFER = 7, 1, 10
TSA_STRICT, TSA_ETS, TSA_VENDOR = 0, 2, 255
DCBX_HOST, DCBX_VER_IEEE = 0x01, 0x08
APP_SEL_DSCP = 5
MLX5_PRIO_TC = [1, 0, 2, 3, 4, 5, 6, 7]   # mlx5e_ets_init(): prio 0 -> TC 1, prio 1 -> TC 0


def ieee_ets(prio_tc, tsa, bw):
    """struct ieee_ets: willing, ets_cap, cbs, then 7 arrays of 8 u8 (59 bytes)."""
    bw = [100 if t != TSA_ETS else b for t, b in zip(tsa, bw)]
    return struct.pack("<BBB8B8B8B8B8B8B8B", 0, 8, 0, *bw, *([0] * 8), *tsa, *prio_tc,
                       *([0] * 8), *([0] * 8), *([0] * 8))


def ieee_pfc(pfc_en, cable_len):
    """struct ieee_pfc {u8 pfc_cap, pfc_en, mbc; u16 delay; u64 requests[8], indications[8]}:
    the u16 at offset 4, the u64 arrays 8-aligned (136 bytes)."""
    return struct.pack("<BBBxH2x8Q8Q", 8, pfc_en, 0, cable_len, *([0] * 8), *([0] * 8))


def dcbnl_buffer(p2b, sizes, total):
    """struct dcbnl_buffer {u8 prio2buffer[8]; u32 buffer_size[8]; u32 total_size} (44 bytes)."""
    return struct.pack("<8B8II", *p2b, *sizes, total)


def dcb_ieee_get(ifname, ets, pfc, maxrate, buf, apps, dcbx):
    ieee = nla(DCB_ATTR_IEEE_ETS, ets) + nla(DCB_ATTR_IEEE_MAXRATE, struct.pack("<8Q", *maxrate))
    ieee += nla(DCB_ATTR_IEEE_PFC, pfc) + nla(DCB_ATTR_DCB_BUFFER, buf)
    # dcb_app {u8 selector; u8 priority; u16 protocol}
    ieee += nla(DCB_ATTR_IEEE_APP_TABLE, b"".join(
        nla(DCB_ATTR_IEEE_APP, struct.pack("<BBH", sel, prio, proto)) for sel, prio, proto in apps))
    body = struct.pack("<BBH", 0, DCB_CMD_IEEE_GET, 0) + nla_str(DCB_ATTR_IFNAME, ifname)
    body += nla(DCB_ATTR_IEEE, ieee) + nla(DCB_ATTR_DCBX, struct.pack("<B", dcbx))
    return nlmsg(RTM_GETDCB, 0, body)


def dcb_gdcbx(dcbx):
    return nlmsg(RTM_GETDCB, 0, struct.pack("<BBH", 0, DCB_CMD_GDCBX, 0) +
                 nla(DCB_ATTR_DCBX, struct.pack("<B", dcbx)))


def write_dcb(root, hostname, fns):
    nldir = os.path.join(root, "netlink", "route")
    for f in sorted(fns, key=lambda f: f["bdf"]):
        if f["vendor"] != 0x15b3 or f.get("physfn") or not f.get("netdevs"):
            continue
        n = f["netdevs"][0]["name"]
        if hostname.startswith("cx5"):
            # SYNTH, a RoCE host consistent with its DCQCN files (enabled on
            # priority 3, cnp_dscp 48, cnp_802p_prio 6): trust DSCP with the
            # default map (priority = DSCP >> 3, as `mlnx_qos --trust dscp`
            # installs it), PFC on 3 (RoCE) and 6 (CNPs), RoCE TC 3 gets 50%.
            ets = ieee_ets(MLX5_PRIO_TC, [TSA_ETS] * 6 + [TSA_STRICT] * 2, [20, 10, 10, 50, 5, 5, 0, 0])
            pfc = ieee_pfc(1 << 3 | 1 << 6, 7)
            buf = dcbnl_buffer([0, 0, 0, 1, 0, 0, 1, 0], [130944, 130944, 0, 0, 0, 0, 0, 0], 262016)
            apps = [(APP_SEL_DSCP, d >> 3, d) for d in range(63, -1, -1)]
        else:
            # SYNTH, a host not set up for RoCE: 8 ETS TCs, PFC off, no APP (PCP trust).
            ets = ieee_ets(MLX5_PRIO_TC, [TSA_ETS] * 8, [13, 13, 12, 12, 13, 13, 12, 12])
            pfc = ieee_pfc(0, 7)
            buf = dcbnl_buffer([0] * 8, [262016, 0, 0, 0, 0, 0, 0, 0], 262016)
            apps = []
        dcbx = DCBX_HOST | DCBX_VER_IEEE
        wfile(os.path.join(nldir, n, "ieee-get.nl"),
              dcb_ieee_get(n, ets, pfc, [0] * 8, buf, apps, dcbx), 0o644)
        wfile(os.path.join(nldir, n, "gdcbx.nl"), dcb_gdcbx(dcbx), 0o644)


# ---------------------------------------------------------------------------
# Counters (issue 5): the driver's `ethtool -S` statistics of every mlx5
# netdev, as `mlxcli snapshot` records them:
#   netlink/ethtool/<if>/strset-stats.nl  ETHTOOL_MSG_STRSET_GET reply for
#       ETH_SS_STATS (include/uapi/linux/ethtool_netlink.h; nests carry
#       NLA_F_NESTED as the kernel's nla_nest_start() sets it)
#   netlink/ethtool/<if>/stats-values.nl  the GSTATS values in mlxcli's own
#       message (type 0x4d58, genl cmd 1; attrs 1 dev name, 2 u32 count,
#       3 u64[] chunks; format in lib/backend/ethtool-stats.c)
# Names: REF:§3.2 group order and names, as seen in FIX:ethtool-S/
# mlx5-ofed-100g-p1-ethtool-S-full-comments-stripped.txt (MLNX_OFED: rx_cache_*,
# tx_cqe_compress_*, rx_prio%d_buf_discard/cong_discard/marked, module_*) and
# FIX:ethtool-S/cx4lx-25g-ethtool-S-grep-discards-pause-pci.txt (pause, PCIe);
# the upstream host uses the page_pool rx_pp_* names of newer kernels (REF:§3.2).
# Values: SYNTH, plausible for the netdev statistics/ seeds above, with
# non-zero pause, discards, ECN marks (and CNPs in hw_counters on cx5-ofed).
# ---------------------------------------------------------------------------

ETHTOOL_GENL_ID = 0x15      # SYNTH: generic-netlink ids are assigned at run time
ETHTOOL_MSG_STRSET_GET_REPLY = 1
NLA_F_NESTED = 0x8000
ETH_SS_STATS = 1
STATS_MSG = 0x4d58

SW_COMMON = ["rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "tx_tso_packets", "tx_tso_bytes",
             "tx_tso_inner_packets", "tx_tso_inner_bytes", "tx_added_vlan_packets", "tx_nop",
             "tx_mpwqe_blks", "tx_mpwqe_pkts", "rx_lro_packets", "rx_lro_bytes", "rx_ecn_mark",
             "rx_removed_vlan_packets", "rx_csum_unnecessary", "rx_csum_none", "rx_csum_complete",
             "rx_csum_complete_tail", "rx_csum_complete_tail_slow", "rx_csum_unnecessary_inner",
             "rx_xdp_drop", "rx_xdp_redirect", "rx_xdp_tx_xmit", "rx_xdp_tx_mpwqe",
             "rx_xdp_tx_inlnw", "rx_xdp_tx_nops", "rx_xdp_tx_full", "rx_xdp_tx_err",
             "rx_xdp_tx_cqe", "tx_csum_none", "tx_csum_partial", "tx_csum_partial_inner",
             "tx_queue_stopped", "tx_queue_dropped", "tx_xmit_more", "tx_recover", "tx_cqes",
             "tx_queue_wake", "tx_cqe_err", "tx_xdp_xmit", "tx_xdp_mpwqe", "tx_xdp_inlnw",
             "tx_xdp_nops", "tx_xdp_full", "tx_xdp_err", "tx_xdp_cqes"]
SW_OFED = ["tx_cqe_compress_blks", "tx_cqe_compress_pkts", "rx_wqe_err", "rx_mpwqe_filler_cqes",
           "rx_mpwqe_filler_strides", "rx_oversize_pkts_sw_drop", "rx_buff_alloc_err",
           "rx_cqe_compress_blks", "rx_cqe_compress_pkts", "rx_cache_reuse", "rx_cache_full",
           "rx_cache_empty", "rx_cache_busy", "rx_cache_ext", "rx_cache_rdc", "rx_cache_alloc",
           "rx_cache_waive", "rx_congst_umr", "rx_arfs_err", "rx_recover"]
SW_UP = ["rx_wqe_err", "rx_mpwqe_filler_cqes", "rx_mpwqe_filler_strides",
         "rx_oversize_pkts_sw_drop", "rx_buff_alloc_err", "rx_cqe_compress_blks",
         "rx_cqe_compress_pkts", "rx_congst_umr", "rx_arfs_err", "rx_recover",
         "rx_pp_alloc_fast", "rx_pp_alloc_slow", "rx_pp_alloc_slow_high_order",
         "rx_pp_alloc_empty", "rx_pp_alloc_refill", "rx_pp_alloc_waive", "rx_pp_recycle_cached",
         "rx_pp_recycle_cache_full", "rx_pp_recycle_ring", "rx_pp_recycle_ring_full",
         "rx_pp_recycle_released_ref"]
CH_TOTALS = ["ch_events", "ch_poll", "ch_arm", "ch_aff_change", "ch_force_irq", "ch_eq_rearm"]
QCNT = ["rx_out_of_buffer", "rx_if_down_packets"]
VNIC = ["rx_steer_missed_packets", "dev_internal_queue_oob"]
VPORT = ["%s_vport_%s_%s" % (d, c, u) for c in ("unicast", "multicast", "broadcast")
         for d in ("rx", "tx") for u in ("packets", "bytes")]
VPORT_RDMA = ["%s_vport_rdma_%s_%s" % (d, c, u) for c in ("unicast", "multicast")
              for d in ("rx", "tx") for u in ("packets", "bytes")]
PHY = ["tx_packets_phy", "rx_packets_phy", "rx_crc_errors_phy", "tx_bytes_phy", "rx_bytes_phy",
       "tx_multicast_phy", "tx_broadcast_phy", "rx_multicast_phy", "rx_broadcast_phy",
       "rx_in_range_len_errors_phy", "rx_out_of_range_len_phy", "rx_oversize_pkts_phy",
       "rx_symbol_err_phy", "tx_mac_control_phy", "rx_mac_control_phy", "rx_unsupported_op_phy",
       "rx_pause_ctrl_phy", "tx_pause_ctrl_phy", "rx_discards_phy", "tx_discards_phy",
       "tx_errors_phy", "rx_undersize_pkts_phy", "rx_fragments_phy", "rx_jabbers_phy",
       "rx_64_bytes_phy", "rx_65_to_127_bytes_phy", "rx_128_to_255_bytes_phy",
       "rx_256_to_511_bytes_phy", "rx_512_to_1023_bytes_phy", "rx_1024_to_1518_bytes_phy",
       "rx_1519_to_2047_bytes_phy", "rx_2048_to_4095_bytes_phy", "rx_4096_to_8191_bytes_phy",
       "rx_8192_to_10239_bytes_phy", "link_down_events_phy", "rx_pcs_symbol_err_phy",
       "rx_corrected_bits_phy", "rx_err_lane_0_phy", "rx_err_lane_1_phy", "rx_err_lane_2_phy",
       "rx_err_lane_3_phy", "rx_buffer_passed_thres_phy", "rx_pci_signal_integrity",
       "tx_pci_signal_integrity", "outbound_pci_stalled_rd", "outbound_pci_stalled_wr",
       "outbound_pci_stalled_rd_events", "outbound_pci_stalled_wr_events"]
PME = ["module_unplug", "module_bus_stuck", "module_high_temp", "module_bad_shorted"]
RX_CH = ["packets", "bytes", "csum_complete", "csum_complete_tail", "csum_complete_tail_slow",
         "csum_unnecessary", "csum_unnecessary_inner", "csum_none", "xdp_drop", "xdp_redirect",
         "lro_packets", "lro_bytes", "ecn_mark", "removed_vlan_packets", "wqe_err",
         "mpwqe_filler_cqes", "mpwqe_filler_strides", "oversize_pkts_sw_drop", "buff_alloc_err",
         "cqe_compress_blks", "cqe_compress_pkts", "congst_umr", "arfs_err", "recover"]
TX_CH = ["packets", "bytes", "tso_packets", "tso_bytes", "tso_inner_packets", "tso_inner_bytes",
         "csum_partial", "csum_partial_inner", "added_vlan_packets", "nop", "mpwqe_blks",
         "mpwqe_pkts", "csum_none", "stopped", "dropped", "xmit_more", "recover", "cqes", "wake",
         "cqe_err"]
CH = ["events", "poll", "arm", "aff_change", "force_irq", "eq_rearm"]


def ethtool_names(ofed, pf, nch, pfc_prios, global_pause):
    names = SW_COMMON + (SW_OFED if ofed else SW_UP) + CH_TOTALS + QCNT
    names += VNIC if pf else []
    names += VPORT + VPORT_RDMA
    if pf:
        names += PHY
        for p in range(8):
            names += ["rx_prio%d_%s" % (p, k) for k in ("bytes", "packets", "discards")]
            names += ["tx_prio%d_%s" % (p, k) for k in ("bytes", "packets")]
        for p in pfc_prios:
            names += ["rx_prio%d_pause" % p, "rx_prio%d_pause_duration" % p,
                      "tx_prio%d_pause" % p, "tx_prio%d_pause_duration" % p,
                      "rx_prio%d_pause_transition" % p]
        if global_pause:
            names += ["rx_global_pause", "rx_global_pause_duration", "tx_global_pause",
                      "tx_global_pause_duration", "rx_global_pause_transition"]
        names += ["tx_pause_storm_warning_events", "tx_pause_storm_error_events"]
        names += PME
    for c in range(nch):
        names += ["ch%d_%s" % (c, k) for k in CH]
    for c in range(nch):
        names += ["rx%d_%s" % (c, k) for k in RX_CH]
    for c in range(nch):
        names += ["tx%d_%s" % (c, k) for k in TX_CH]
    if pf and ofed:
        for p in range(8):
            names += ["rx_prio%d_%s" % (p, k) for k in ("buf_discard", "cong_discard", "marked")]
    return names


def ethtool_values(names, seed, up, nch, roce_prio):
    """SYNTH values consistent with write_netdev_stats(seed) (rx/tx packets and bytes)."""
    if not up:
        return [0] * len(names)
    rxp, txp = 1234567 * seed, 1134567 * seed
    rxb, txb = rxp * 1024, txp * 1100
    roce_rx, roce_tx = 52341 * 4096, 48211 * 4096        # RDMA bytes beside the netdev's
    v = {"rx_packets": rxp, "tx_packets": txp, "rx_bytes": rxb, "tx_bytes": txb,
         "rx_csum_complete": rxp - 1000, "rx_csum_none": 1000, "tx_csum_partial": txp - 20,
         "tx_csum_none": 20, "tx_cqes": txp // 4, "tx_xmit_more": txp // 3,
         "tx_queue_stopped": 3, "tx_queue_wake": 3, "rx_ecn_mark": 37 * seed,
         "rx_out_of_buffer": 12 * seed, "rx_steer_missed_packets": 194,
         "ch_events": rxp // 40, "ch_poll": rxp // 32, "ch_arm": rxp // 40,
         "rx_cache_reuse": rxp // 2, "rx_pp_alloc_fast": rxp // 2, "rx_pp_recycle_ring": rxp // 2,
         "rx_vport_unicast_packets": rxp + 52341, "rx_vport_unicast_bytes": rxb + roce_rx,
         "tx_vport_unicast_packets": txp + 48211, "tx_vport_unicast_bytes": txb + roce_tx,
         "rx_vport_multicast_packets": 4321 * seed, "rx_vport_multicast_bytes": 4321 * seed * 90,
         "rx_vport_broadcast_packets": 215, "rx_vport_broadcast_bytes": 215 * 64,
         "rx_vport_rdma_unicast_packets": 52341, "rx_vport_rdma_unicast_bytes": roce_rx,
         "tx_vport_rdma_unicast_packets": 48211, "tx_vport_rdma_unicast_bytes": roce_tx,
         "rx_packets_phy": rxp + 52341 + 4321 * seed + 215 + 4210,
         "tx_packets_phy": txp + 48211 + 2, "rx_bytes_phy": rxb + roce_rx + 4321 * seed * 90,
         "tx_bytes_phy": txb + roce_tx, "rx_multicast_phy": 4321 * seed, "rx_broadcast_phy": 215,
         "rx_discards_phy": 4210, "rx_crc_errors_phy": 7, "rx_symbol_err_phy": 7,
         "rx_pcs_symbol_err_phy": 7, "rx_corrected_bits_phy": 1775073, "rx_err_lane_0_phy": 2811,
         "rx_err_lane_3_phy": 1772262, "tx_pci_signal_integrity": 2,
         "rx_64_bytes_phy": 99054, "rx_65_to_127_bytes_phy": 647885,
         "rx_128_to_255_bytes_phy": 710050, "rx_256_to_511_bytes_phy": 26393,
         "rx_512_to_1023_bytes_phy": 244, "rx_1024_to_1518_bytes_phy": rxp - 1483626}
    # all traffic on priority 0, RoCE on roce_prio (REF: RoCE set-up of the OFED host)
    v["rx_prio0_bytes"] = rxb + 4321 * seed * 90
    v["rx_prio0_packets"] = rxp + 4321 * seed + 215
    v["tx_prio0_bytes"], v["tx_prio0_packets"] = txb, txp
    v["rx_prio%d_bytes" % roce_prio], v["rx_prio%d_packets" % roce_prio] = roce_rx, 52341
    v["tx_prio%d_bytes" % roce_prio], v["tx_prio%d_packets" % roce_prio] = roce_tx, 48211
    v["rx_prio0_discards"] = 4210
    v["rx_prio%d_pause" % roce_prio], v["rx_prio%d_pause_duration" % roce_prio] = 1530, 97920
    v["tx_prio%d_pause" % roce_prio], v["tx_prio%d_pause_duration" % roce_prio] = 8042, 514688
    v["rx_prio%d_pause_transition" % roce_prio] = 765
    v["tx_pause_ctrl_phy"] = v["tx_mac_control_phy"] = 8042
    v["rx_pause_ctrl_phy"] = v["rx_mac_control_phy"] = 1530
    v["rx_prio%d_marked" % roce_prio] = 977
    v["rx_prio0_buf_discard"] = 4210
    v["tx_global_pause"], v["tx_global_pause_duration"] = 12665, 5556651
    if "tx_global_pause" in names:
        v["tx_pause_ctrl_phy"] += 12665
        v["tx_mac_control_phy"] += 12665
    for c in range(nch):
        share = lambda x: x // nch + (x % nch if c == 0 else 0)
        for k, tot in (("rx%d_packets", rxp), ("rx%d_bytes", rxb), ("tx%d_packets", txp),
                       ("tx%d_bytes", txb), ("ch%d_events", rxp // 40), ("ch%d_poll", rxp // 32),
                       ("ch%d_arm", rxp // 40), ("rx%d_csum_complete", rxp - 1000),
                       ("rx%d_ecn_mark", 37 * seed), ("tx%d_cqes", txp // 4),
                       ("tx%d_csum_partial", txp - 20)):
            v[k % c] = share(tot)
        v["rx%d_csum_none" % c] = share(1000)
        v["tx%d_csum_none" % c] = share(20)
        v["tx%d_stopped" % c] = v["tx%d_wake" % c] = 3 if c == 1 else 0
    return [v.get(n, 0) for n in names]


def strset_reply(names, ifname, ifindex):
    strs = b"".join(nla(NLA_F_NESTED | 1, nla(1, struct.pack("<I", i)) + nla_str(2, n))
                    for i, n in enumerate(names))
    sset = nla(1, struct.pack("<I", ETH_SS_STATS)) + nla(2, struct.pack("<I", len(names)))
    sset += nla(NLA_F_NESTED | 3, strs)
    body = struct.pack("<BBH", ETHTOOL_MSG_STRSET_GET_REPLY, 1, 0)
    body += nla(NLA_F_NESTED | 1, nla(1, struct.pack("<I", ifindex)) + nla_str(2, ifname))
    body += nla(NLA_F_NESTED | 2, nla(NLA_F_NESTED | 1, sset))
    return nlmsg(ETHTOOL_GENL_ID, 0, body)


def stats_values_msg(ifname, vals):
    body = struct.pack("<BBH", 1, 1, 0) + nla_str(1, ifname) + nla(2, struct.pack("<I", len(vals)))
    for i in range(0, len(vals), 8000):
        chunk = vals[i:i + 8000]
        body += nla(3, struct.pack("<%dQ" % len(chunk), *chunk))
    return nlmsg(STATS_MSG, 0, body, seq=0)


def write_ethtool_stats(root, fns):
    nldir = os.path.join(root, "netlink", "ethtool")
    for f in sorted(fns, key=lambda f: f["bdf"]):
        if f["vendor"] != 0x15b3 or not f.get("netdevs"):
            continue
        n = f["netdevs"][0]
        pf = not f.get("physfn")
        ofed = bool(f["netdevs"][0].get("ofed")) or bool(f.get("physfn") and
                                                          any(g.get("netdevs", [{}])[0].get("ofed")
                                                              for g in fns if g["bdf"] == f["physfn"]))
        nch = 4 if pf else 2
        pfc = [ROCE_PRIO] if ofed else []
        names = ethtool_names(ofed, pf, nch, pfc, not ofed)
        vals = ethtool_values(names, n["ifindex"], n["up"], nch, ROCE_PRIO)
        d = os.path.join(nldir, n["name"])
        wfile(os.path.join(d, "strset-stats.nl"), strset_reply(names, n["name"], n["ifindex"]), 0o644)
        wfile(os.path.join(d, "stats-values.nl"), stats_values_msg(n["name"], vals), 0o644)


# ---------------------------------------------------------------------------
# devlink health, ethtool link state, mlx5 command statistics (issue 7
# follow-up), as `mlxcli snapshot` records them:
#   netlink/devlink/pci:<BDF>/health-get.nl   DEVLINK_CMD_HEALTH_REPORTER_GET
#       dump: one NLM_F_MULTI message per reporter, then NLMSG_DONE, in
#       devlink_nl_health_reporter_fill() order (KERNEL net/devlink/health.c:
#       BUS_NAME, DEV_NAME, [PORT_INDEX], the HEALTH_REPORTER nest {NAME,
#       STATE, ERR_COUNT, RECOVER_COUNT, [GRACEFUL_PERIOD, AUTO_RECOVER] when
#       the reporter recovers, [DUMP_TS, DUMP_TS_NS] when a dump is held,
#       [AUTO_DUMP] when it dumps}); numbers REF:§0.1
#   netlink/devlink/pci:<BDF>/diagnose-<reporter>[-port<N>].nl   the fmsg
#       stream of HEALTH_REPORTER_DIAGNOSE (devlink_fmsg_snd: NLM_F_MULTI
#       messages, each with a DEVLINK_ATTR_FMSG nest, then NLMSG_DONE);
#       fw_fatal has no diagnose op: the kernel's -EOPNOTSUPP error reply
#   netlink/ethtool/<if>/linkstate-get.nl   ETHTOOL_MSG_LINKSTATE_GET_REPLY
#       (KERNEL net/ethtool/linkstate.c: header, LINK, EXT_STATE/SUBSTATE
#       when the driver reports a reason)
#   sys/kernel/debug/mlx5/<BDF>/commands/<CMD>/{average,n,failed,...}
#       (KERNEL drivers/net/ethernet/mellanox/mlx5/core/debugfs.c
#       mlx5_cmdif_debugfs_init; 6.1 has no last_failed_syndrome)
# Reporters REF:§6.3: fw (diagnose, dump), fw_fatal (dump, recover), tx and
# rx (netdev port reporters: diagnose, dump, recover).  Values SYNTH.
# ---------------------------------------------------------------------------

NLM_F_MULTI, NLMSG_ERROR, NLMSG_DONE = 2, 2, 3
NLA_F_NESTED_ = 0x8000
DEVLINK_ATTR_PORT_INDEX = 3
DEVLINK_CMD_HEALTH_REPORTER_GET, DEVLINK_CMD_HEALTH_REPORTER_DIAGNOSE = 52, 55
(DEVLINK_ATTR_FMSG, FMSG_OBJ_NEST_START, FMSG_PAIR_NEST_START, FMSG_ARR_NEST_START,
 FMSG_NEST_END, FMSG_OBJ_NAME, FMSG_OBJ_VALUE_TYPE, FMSG_OBJ_VALUE_DATA) = range(106, 114)
(HR, HR_NAME, HR_STATE, HR_ERR_COUNT, HR_RECOVER_COUNT, HR_DUMP_TS, HR_GRACEFUL_PERIOD,
 HR_AUTO_RECOVER) = range(114, 122)
HR_DUMP_TS_NS, HR_AUTO_DUMP = 137, 141
NLA_U8, NLA_U32, NLA_U64, NLA_FLAG, NLA_NUL_STRING = 1, 3, 4, 6, 10
ETHTOOL_MSG_LINKSTATE_GET_REPLY = 6
ETHTOOL_A_LINKSTATE_LINK, ETHTOOL_A_LINKSTATE_EXT_STATE = 2, 5
ETHTOOL_LINK_EXT_STATE_NO_CABLE = 4
EOPNOTSUPP = 95


def devlink_handle(bdf):
    return nla_str(DEVLINK_ATTR_BUS_NAME, "pci") + nla_str(DEVLINK_ATTR_DEV_NAME, bdf)


def reporter_msg(bdf, name, port, err, rec, grace=None, dump_ts=None, auto_dump=None):
    r = nla_str(HR_NAME, name) + nla(HR_STATE, struct.pack("<B", 0))      # healthy
    r += nla(HR_ERR_COUNT, struct.pack("<Q", err)) + nla(HR_RECOVER_COUNT, struct.pack("<Q", rec))
    if grace is not None:
        r += nla(HR_GRACEFUL_PERIOD, struct.pack("<Q", grace)) + nla(HR_AUTO_RECOVER, struct.pack("<B", 1))
    if dump_ts is not None:
        r += nla(HR_DUMP_TS, struct.pack("<Q", dump_ts[0])) + nla(HR_DUMP_TS_NS, struct.pack("<Q", dump_ts[1]))
    if auto_dump is not None:
        r += nla(HR_AUTO_DUMP, struct.pack("<B", auto_dump))
    a = devlink_handle(bdf)
    if port is not None:
        a += nla(DEVLINK_ATTR_PORT_INDEX, struct.pack("<I", port))
    a += nla(NLA_F_NESTED_ | HR, r)
    return nlmsg(DEVLINK_GENL_ID, NLM_F_MULTI, struct.pack("<BBH", DEVLINK_CMD_HEALTH_REPORTER_GET, 1, 0) + a)


def nlmsg_done():
    return nlmsg(NLMSG_DONE, NLM_F_MULTI, struct.pack("<i", 0))


def nlmsg_err(errno, req_cmd, req_len):
    """NLMSG_ERROR with the request's header echoed (NLM_F_CAPPED 0x100: header only)."""
    req = struct.pack("<IHHII", req_len, DEVLINK_GENL_ID, 1, 1, NL_PID)
    return nlmsg(NLMSG_ERROR, 0x100, struct.pack("<i", -errno) + req)


# fmsg items (devlink_fmsg_prepare_skb: flags are zero-length attributes;
# a value is OBJ_VALUE_TYPE then OBJ_VALUE_DATA; a flag's data is a u8)
def f_obj():
    return nla(FMSG_OBJ_NEST_START, b"")


def f_end():
    return nla(FMSG_NEST_END, b"")


def f_val(t, v):
    data = {NLA_U8: lambda: struct.pack("<B", v), NLA_U32: lambda: struct.pack("<I", v),
            NLA_U64: lambda: struct.pack("<Q", v), NLA_FLAG: lambda: struct.pack("<B", 1 if v else 0),
            NLA_NUL_STRING: lambda: v.encode() + b"\0"}[t]()
    return nla(FMSG_OBJ_VALUE_TYPE, struct.pack("<B", t)) + nla(FMSG_OBJ_VALUE_DATA, data)


def f_pair(name, t, v):
    return nla(FMSG_PAIR_NEST_START, b"") + nla_str(FMSG_OBJ_NAME, name) + f_val(t, v) + f_end()


def f_obj_pair(name, body):
    return nla(FMSG_PAIR_NEST_START, b"") + nla_str(FMSG_OBJ_NAME, name) + f_obj() + body + f_end() + f_end()


def f_arr_pair(name, elems):
    return (nla(FMSG_PAIR_NEST_START, b"") + nla_str(FMSG_OBJ_NAME, name) + nla(FMSG_ARR_NEST_START, b"") +
            b"".join(elems) + f_end() + f_end())


def fmsg_msgs(cmd, items, per_msg):
    """The stream over several NLM_F_MULTI messages, split between items as
    devlink_fmsg_snd() does when a message fills up, then NLMSG_DONE."""
    out = b""
    for i in range(0, len(items), per_msg):
        body = struct.pack("<BBH", cmd, 1, 0) + nla(NLA_F_NESTED_ | DEVLINK_ATTR_FMSG, b"".join(items[i:i + per_msg]))
        out += nlmsg(DEVLINK_GENL_ID, NLM_F_MULTI, body)
    return out + nlmsg_done()


def cq_obj(cqn, size):
    return f_obj_pair("CQ", f_pair("cqn", NLA_U32, cqn) + f_pair("HW status", NLA_U8, 0) +
                      f_pair("ci", NLA_U32, 0) + f_pair("size", NLA_U32, size))


def tx_diagnose(nch, base):
    """en/reporter_tx.c mlx5e_tx_reporter_diagnose (abbreviated): Common config, SQs."""
    common = f_obj_pair("Common Config", f_obj_pair("SQ", f_pair("stride size", NLA_U64, 64) +
                                                       f_pair("size", NLA_U64, 1024) +
                                                       f_pair("ts_format", NLA_NUL_STRING, "FRC")))
    sqs = [f_obj() + f_pair("channel", NLA_U32, c) + f_pair("tc", NLA_U32, 0) + f_pair("txq", NLA_U32, c) +
           f_pair("sqn", NLA_U32, base + 0x40 * c) + f_pair("HW state", NLA_U8, 1) +
           f_pair("stopped", NLA_FLAG, False) + f_pair("cc", NLA_U32, 4096 * c) +
           f_pair("pc", NLA_U32, 4096 * c) + cq_obj(base + 0x400 + c, 1024) + f_end() for c in range(nch)]
    return [f_obj(), common, f_arr_pair("SQs", sqs), f_end()]


def rx_diagnose(nch, base):
    """en/reporter_rx.c mlx5e_rx_reporter_diagnose (abbreviated): Common config, RQs."""
    common = f_obj_pair("Common config", f_obj_pair("RQ", f_pair("type", NLA_U8, 1) +
                                                       f_pair("stride size", NLA_U64, 2048) +
                                                       f_pair("size", NLA_U64, 1024)))
    rqs = [f_obj() + f_pair("channel", NLA_U32, c) + f_pair("rqn", NLA_U32, base + 0x20 * c) +
           f_pair("HW state", NLA_U8, 1) + f_pair("WQE counter", NLA_U32, 1023) +
           f_pair("posted WQEs", NLA_U32, 1023) + f_pair("cc", NLA_U32, 0) +
           cq_obj(base + 0x800 + c, 1024) + f_end() for c in range(nch)]
    return [f_obj(), common, f_arr_pair("RQs", rqs), f_end()]


# SYNTH: the fw reporter of cx5-ofed saw one firmware error a month before
# the capture (err_count 1, a dump held from then); healthy since.
FW_ERROR_AT_NS = 1702641600 * 10**9 + 123 * 10**6     # 2023-12-15T12:00:00.123Z
FW_ERROR_JIFFIES_MS = 4294967296 + 3600000


def write_health(root, hostname, fns):
    nldir = os.path.join(root, "netlink")
    pfs = sorted((f for f in fns if f["vendor"] == 0x15b3 and not f.get("physfn") and f.get("netdevs")),
                 key=lambda f: f["bdf"])
    for vhca, f in enumerate(pfs):
        bdf = f["bdf"]
        obj = os.path.join(nldir, "devlink", "pci:" + bdf)
        # uplink devlink port index: (vhca_id << 16) | MLX5_VPORT_UPLINK (0xffff), SYNTH vhca_id
        port = (vhca << 16) | 0xffff
        fw_err = 1 if hostname.startswith("cx5") and vhca == 0 else 0
        msgs = reporter_msg(bdf, "fw", None, fw_err, 0,
                            dump_ts=(FW_ERROR_JIFFIES_MS, FW_ERROR_AT_NS) if fw_err else None, auto_dump=1)
        msgs += reporter_msg(bdf, "fw_fatal", None, 0, 0, grace=60000, auto_dump=1)   # PF grace 60 s
        msgs += reporter_msg(bdf, "tx", port, 0, 0, grace=500, auto_dump=1)
        msgs += reporter_msg(bdf, "rx", port, 0, 0, grace=500, auto_dump=1)
        wfile(os.path.join(obj, "health-get.nl"), msgs + nlmsg_done(), 0o644)
        # fw diagnose (mlx5_fw_reporter_diagnose): Syndrome, Description only when not 0
        wfile(os.path.join(obj, "diagnose-fw.nl"),
              fmsg_msgs(DEVLINK_CMD_HEALTH_REPORTER_DIAGNOSE, [f_obj() + f_pair("Syndrome", NLA_U8, 0) + f_end()], 8),
              0o644)
        # request length: nlmsghdr + genlmsghdr + bus + dev + reporter name attributes
        wfile(os.path.join(obj, "diagnose-fw_fatal.nl"),
              nlmsg_err(EOPNOTSUPP, DEVLINK_CMD_HEALTH_REPORTER_DIAGNOSE, 16 + 4 + 8 + 16 + 16), 0o644)
        nch = 4
        base = 0x1000 * (vhca + 1)
        wfile(os.path.join(obj, "diagnose-tx-port%d.nl" % port),
              fmsg_msgs(DEVLINK_CMD_HEALTH_REPORTER_DIAGNOSE, tx_diagnose(nch, base), 2), 0o644)
        wfile(os.path.join(obj, "diagnose-rx-port%d.nl" % port),
              fmsg_msgs(DEVLINK_CMD_HEALTH_REPORTER_DIAGNOSE, rx_diagnose(nch, base), 2), 0o644)
        # link state of the PF netdev: up, or down with the reason mlx5 gives
        # for an empty cage (SYNTH: PF1 of cx5-ofed has carrier 0)
        n = f["netdevs"][0]
        body = struct.pack("<BBH", ETHTOOL_MSG_LINKSTATE_GET_REPLY, 1, 0)
        body += nla(NLA_F_NESTED_ | 1, nla(1, struct.pack("<I", n["ifindex"])) + nla_str(2, n["name"]))
        body += nla(ETHTOOL_A_LINKSTATE_LINK, struct.pack("<B", 1 if n["up"] else 0))
        if not n["up"]:
            body += nla(ETHTOOL_A_LINKSTATE_EXT_STATE, struct.pack("<B", ETHTOOL_LINK_EXT_STATE_NO_CABLE))
        wfile(os.path.join(nldir, "ethtool", n["name"], "linkstate-get.nl"),
              nlmsg(ETHTOOL_GENL_ID, 0, body), 0o644)


# mlx5 firmware command statistics (debugfs), on the upstream host only: the
# cx5-ofed capture has no debugfs (not mounted there).  SYNTH values: an
# ordinary load since boot; ACCESS_REG failed a few times (bad parameter,
# mbox status 0x3 -> -EINVAL) as an unsupported register query does.
CMD_STATS = [  # name, n, average ns, failed, failed_mbox_status, last errno, last mbox status
    ("MANAGE_PAGES", 5212, 41250, 0, 0, 0, 0),
    ("QUERY_PAGES", 6, 9120, 0, 0, 0, 0),
    ("ACCESS_REG", 3120, 21877, 12, 12, 22, 3),
    ("CREATE_MKEY", 1024, 8211, 0, 0, 0, 0),
    ("QUERY_HCA_CAP", 42, 15302, 0, 0, 0, 0),
    ("CREATE_CQ", 36, 12004, 0, 0, 0, 0),
    ("CREATE_EQ", 18, 30551, 0, 0, 0, 0),
    ("QUERY_VPORT_STATE", 9, 7031, 0, 0, 0, 0),
    ("ENABLE_HCA", 1, 1200345, 0, 0, 0, 0),
    ("DESTROY_MKEY", 0, 0, 0, 0, 0, 0),
]


def write_cmd_stats(root, bdf, scale):
    for name, n, avg, failed, fms, errno_, mbox in CMD_STATS:
        d = os.path.join(root, "sys", "kernel", "debug", "mlx5", bdf, "commands", name)
        for fname, v in (("average", avg), ("n", n * scale), ("failed", failed * scale),
                         ("failed_mbox_status", fms * scale), ("last_failed_errno", errno_),
                         ("last_failed_mbox_status", mbox)):
            wfile(os.path.join(d, fname), "%u\n" % v, 0o600)


# ---------------------------------------------------------------------------
# params (issue 17): the replies `mlxcli snapshot` records for `mlxcli params`
# (lib/params/params.c): one dump per ethtool message type and the devlink
# parameter dump, each for the whole host:
#   netlink/ethtool/all/{privflags,features,rings,channels,coalesce}-dump.nl
#   netlink/devlink/all/param-dump.nl
# laid out per include/uapi/linux/ethtool_netlink.h (verbose bitsets with
# names, net/ethtool/bitset.c) and include/uapi/linux/devlink.h (net/devlink/
# param.c: a bool's DATA is a flag present when true); and mlx5_core's
# sys/module/mlx5_core/parameters.
# Values: FIX:ethtool/cx5ex-upstream-6.4rc2-show-priv-flags-and-ethtool-i.txt
# (private flags), FIX:ethtool/cx4lx-25g-pve6.8-ethtool-settings-g-k-i-c-l.txt
# (-k features with [fixed], -g 8192/1024, -c adaptive on/on, 8 us/128, CQE
# mode RX on TX off, -l combined 12), FIX:devlink/KERNELDOC-mlx5-devlink-dev-
# param-show-examples.txt (flow_steering_mode, enable_roce, esw_port_metadata,
# hairpin_*), FIX:ethtool/mlx5-ofed4.9-modinfo-p-and-sys-module-mlx5_core-
# parameters.txt (the OFED module's parameter names, guids "(null)").
# SYNTH: the MLNX_OFED private flags dropless_rq and per_channel_stats, and a
# tuned cx5-ofed PF0 (dropless_rq on, rx ring 8192 for packet bursts, LRO on)
# so that `params --diff` has something to say; the channel counts follow
# the counters' channels (4 per PF, 2 per VF).
# ---------------------------------------------------------------------------

NLM_F_MULTI_ = 2
ETHTOOL_MSG_FEATURES_GET_REPLY, ETHTOOL_MSG_PRIVFLAGS_GET_REPLY = 11, 14
ETHTOOL_MSG_RINGS_GET_REPLY, ETHTOOL_MSG_CHANNELS_GET_REPLY = 16, 18
ETHTOOL_MSG_COALESCE_GET_REPLY = 20
DEVLINK_CMD_PARAM_GET = 38
DEVLINK_ATTR_PARAM, DEVLINK_ATTR_PARAM_NAME, DEVLINK_ATTR_PARAM_GENERIC = 80, 81, 82
DEVLINK_ATTR_PARAM_TYPE, DEVLINK_ATTR_PARAM_VALUES_LIST = 83, 84
DEVLINK_ATTR_PARAM_VALUE, DEVLINK_ATTR_PARAM_VALUE_DATA, DEVLINK_ATTR_PARAM_VALUE_CMODE = 85, 86, 87
PT_U32, PT_STRING, PT_BOOL = 3, 5, 6
CM_RUNTIME, CM_DRIVERINIT = 0, 1

PRIVFLAGS_UP = [("rx_cqe_moder", 1), ("tx_cqe_moder", 0), ("rx_cqe_compress", 0),
                ("rx_striding_rq", 1), ("rx_no_csum_complete", 0), ("xdp_tx_mpwqe", 1),
                ("skb_tx_mpwqe", 1), ("tx_port_ts", 0)]
PRIVFLAGS_OFED_EXTRA = [("dropless_rq", 0), ("per_channel_stats", 1)]
# (kernel name, active, changeable): ethtool -k of FIX cx4lx; [fixed] = not changeable
FEATURES = [("tx-scatter-gather", 1, 1), ("tx-checksum-ip-generic", 1, 1), ("tx-vlan-hw-insert", 1, 1),
            ("rx-vlan-hw-parse", 1, 1), ("rx-vlan-filter", 1, 1), ("highdma", 1, 0),
            ("tx-generic-segmentation", 1, 1), ("rx-gro", 1, 1), ("rx-lro", 0, 1),
            ("tx-tcp-segmentation", 1, 1), ("tx-tcp6-segmentation", 1, 1),
            ("tx-udp-segmentation", 1, 1), ("rx-ntuple-filter", 0, 1), ("rx-hashing", 1, 1),
            ("rx-checksum", 1, 1), ("rx-fcs", 0, 1), ("rx-all", 0, 1), ("hw-tc-offload", 0, 1),
            ("rx-gro-hw", 0, 0), ("macsec-hw-offload", 1, 1),
            # the tunnel offloads (issue 27, mlxcli vxlan), same capture
            ("tx-gre-segmentation", 1, 1), ("tx-gre-csum-segmentation", 1, 1),
            ("tx-ipxip4-segmentation", 0, 0), ("tx-ipxip6-segmentation", 0, 0),
            ("tx-udp_tnl-segmentation", 1, 1), ("tx-udp_tnl-csum-segmentation", 1, 1),
            ("rx-udp_tunnel-port-offload", 1, 1)]


def eth_hdr(n):
    return nla(NLA_F_NESTED_ | 1, nla(1, struct.pack("<I", n["ifindex"])) + nla_str(2, n["name"]))


def bitset(bits):
    """Verbose bitset: SIZE, BITS {BIT {INDEX, NAME, VALUE flag when set}}."""
    b = b"".join(nla(NLA_F_NESTED_ | 1, nla(1, struct.pack("<I", i)) + nla_str(2, name) +
                     (nla(3, b"") if v else b"")) for i, (name, v) in enumerate(bits))
    return nla(2, struct.pack("<I", len(bits))) + nla(NLA_F_NESTED_ | 3, b)


def bitset_nomask(names):
    """Verbose NOMASK bitset (what features.c sends: no mask, so only the set
    bits are listed, without VALUE flags): NOMASK, SIZE, BITS {BIT {INDEX, NAME}}."""
    b = b"".join(nla(NLA_F_NESTED_ | 1, nla(1, struct.pack("<I", i)) + nla_str(2, name))
                 for i, name in names)
    return nla(1, b"") + nla(2, struct.pack("<I", len(FEATURES))) + nla(NLA_F_NESTED_ | 3, b)


def eth_msg(cmd, body):
    return nlmsg(ETHTOOL_GENL_ID, NLM_F_MULTI_, struct.pack("<BBH", cmd, 1, 0) + body)


def dl_param(bdf, name, generic, ptype, cmode, value):
    if ptype == PT_BOOL:
        data = nla(DEVLINK_ATTR_PARAM_VALUE_DATA, b"") if value else b""
    elif ptype == PT_U32:
        data = nla(DEVLINK_ATTR_PARAM_VALUE_DATA, struct.pack("<I", value))
    else:
        data = nla_str(DEVLINK_ATTR_PARAM_VALUE_DATA, value)
    val = nla(NLA_F_NESTED_ | DEVLINK_ATTR_PARAM_VALUE,
              nla(DEVLINK_ATTR_PARAM_VALUE_CMODE, struct.pack("<B", cmode)) + data)
    p = nla_str(DEVLINK_ATTR_PARAM_NAME, name)
    p += nla(DEVLINK_ATTR_PARAM_GENERIC, b"") if generic else b""
    p += nla(DEVLINK_ATTR_PARAM_TYPE, struct.pack("<B", ptype))
    p += nla(NLA_F_NESTED_ | DEVLINK_ATTR_PARAM_VALUES_LIST, val)
    a = nla_str(DEVLINK_ATTR_BUS_NAME, "pci") + nla_str(DEVLINK_ATTR_DEV_NAME, bdf)
    a += nla(NLA_F_NESTED_ | DEVLINK_ATTR_PARAM, p)
    return nlmsg(DEVLINK_GENL_ID, NLM_F_MULTI_, struct.pack("<BBH", DEVLINK_CMD_PARAM_GET, 1, 0) + a)


def write_params(root, hostname, fns):
    ofed_host = hostname.startswith("cx5")
    mlx = sorted((f for f in fns if f["vendor"] == 0x15b3 and f.get("netdevs")), key=lambda f: f["bdf"])
    dumps = {k: b"" for k in ("privflags", "features", "rings", "channels", "coalesce")}
    params = b""
    first_pf = True
    for f in mlx:
        pf = not f.get("physfn")
        tuned = ofed_host and pf and first_pf
        first_pf = first_pf and not pf
        for n in f["netdevs"]:
            flags = PRIVFLAGS_UP + (PRIVFLAGS_OFED_EXTRA if ofed_host else [])
            if tuned:
                flags = [(k, 1 if k == "dropless_rq" else v) for k, v in flags]
            dumps["privflags"] += eth_msg(ETHTOOL_MSG_PRIVFLAGS_GET_REPLY, eth_hdr(n) + nla(NLA_F_NESTED_ | 2, bitset(flags)))
            feats = [(k, 1 if (tuned and k == "rx-lro") else a, c) for k, a, c in FEATURES]
            fb = eth_hdr(n)
            idx = list(enumerate(k for k, a, c in feats))
            fb += nla(NLA_F_NESTED_ | 2, bitset_nomask([(i, k) for i, k in idx if feats[i][2]]))      # HW
            fb += nla(NLA_F_NESTED_ | 3, bitset_nomask([(i, k) for i, k in idx if feats[i][1]]))      # WANTED
            fb += nla(NLA_F_NESTED_ | 4, bitset_nomask([(i, k) for i, k in idx if feats[i][1]]))      # ACTIVE
            fb += nla(NLA_F_NESTED_ | 5, bitset_nomask([(i, k) for i, k in idx if not feats[i][2]]))  # NOCHANGE
            dumps["features"] += eth_msg(ETHTOOL_MSG_FEATURES_GET_REPLY, fb)
            rb = eth_hdr(n) + nla(2, struct.pack("<I", 8192)) + nla(5, struct.pack("<I", 8192))  # RX_MAX, TX_MAX
            rb += nla(6, struct.pack("<I", 8192 if tuned else 1024))                   # RX
            rb += nla(9, struct.pack("<I", 1024))                                      # TX
            rb += nla(11, struct.pack("<B", 0)) + nla(13, struct.pack("<B", 0))        # TCP_DATA_SPLIT, TX_PUSH
            dumps["rings"] += eth_msg(ETHTOOL_MSG_RINGS_GET_REPLY, rb)
            nch = 4 if pf else 2
            cb = eth_hdr(n) + nla(5, struct.pack("<I", 12 if pf else 2)) + nla(9, struct.pack("<I", nch))
            dumps["channels"] += eth_msg(ETHTOOL_MSG_CHANNELS_GET_REPLY, cb)
            ob = eth_hdr(n)
            for t, v in ((2, 8), (3, 128), (6, 8), (7, 128)):          # RX/TX USECS, MAX_FRAMES
                ob += nla(t, struct.pack("<I", v))
            for t, v in ((11, 1), (12, 1), (24, 0), (25, 1)):          # ADAPTIVE RX/TX (11, 12), CQE TX/RX (24, 25)
                ob += nla(t, struct.pack("<B", v))
            dumps["coalesce"] += eth_msg(ETHTOOL_MSG_COALESCE_GET_REPLY, ob)
        if pf:
            bdf = f["bdf"]
            params += dl_param(bdf, "enable_roce", True, PT_BOOL, CM_DRIVERINIT, 1)
            params += dl_param(bdf, "io_eq_size", True, PT_U32, CM_DRIVERINIT, 1024)
            params += dl_param(bdf, "event_eq_size", True, PT_U32, CM_DRIVERINIT, 4096)
            params += dl_param(bdf, "max_macs", True, PT_U32, CM_DRIVERINIT, 128)
            params += dl_param(bdf, "enable_remote_dev_reset", True, PT_BOOL, CM_RUNTIME, 1)
            params += dl_param(bdf, "flow_steering_mode", False, PT_STRING, CM_RUNTIME,
                               "dmfs" if ofed_host else "smfs")
            params += dl_param(bdf, "esw_port_metadata", False, PT_BOOL, CM_RUNTIME, 1)
            params += dl_param(bdf, "hairpin_num_queues", False, PT_U32, CM_DRIVERINIT, 2)
            params += dl_param(bdf, "hairpin_queue_size", False, PT_U32, CM_DRIVERINIT, 1024)
            params += dl_param(bdf, "fdb_large_groups", False, PT_U32, CM_DRIVERINIT, 15)
    for k, v in dumps.items():
        wfile(os.path.join(root, "netlink", "ethtool", "all", k + "-dump.nl"), v + nlmsg_done(), 0o644)
    wfile(os.path.join(root, "netlink", "devlink", "all", "param-dump.nl"), params + nlmsg_done(), 0o644)
    mp = os.path.join(root, "sys", "module", "mlx5_core", "parameters")
    modp = ({"debug_mask": "0", "guids": "(null)", "num_of_groups": "4", "out_ifname": "",
             "probe_vf": "Y", "prof_sel": "2"} if ofed_host else {"debug_mask": "0", "prof_sel": "2"})
    for k, v in modp.items():
        wfile(os.path.join(mp, k), v + "\n", 0o644)
    # rdma_cm configfs (drivers/infiniband/core/cma_configfs.c), SYNTH: on
    # cx5-ofed someone made mlx5_0's directory and set the RoCE ToS to 106
    # (DSCP 26 with ECN capable, the usual RoCE set-up); RoCE v2 is the
    # kernel's default mode
    if ofed_host:
        d = os.path.join(root, "sys", "kernel", "config", "rdma_cm", "mlx5_0", "ports", "1")
        wfile(os.path.join(d, "default_roce_mode"), "RoCE v2\n", 0o644)
        wfile(os.path.join(d, "default_roce_tos"), "106\n", 0o644)
        # MLNX_OFED's per-port traffic class (mlx5_ib tc sysfs), SYNTH after
        # fixtures/dcqcn/mlx5-sysfs-tc1-traffic_class-global-tclass.txt: PF0's
        # mlx5_0 was given 106 (the capture's "echo 106", matching its RoCE
        # ToS), PF1's mlx5_1 never was (the capture: empty before the write)
        for dev, text in (("mlx5_0", "Global tclass=106\n"), ("mlx5_1", "")):
            wfile(os.path.join(root, "sys", "class", "infiniband", dev, "tc", "1", "traffic_class"),
                  text, 0o644)


def write_host(root, hostname, kernel, fns):
    for f in sorted(fns, key=lambda f: f["bdf"]):
        write_function(root, f)
    os.makedirs(os.path.join(root, "sys", "bus", "pci", "drivers", "mlx5_core"), exist_ok=True)
    write_loopback(root)
    write_snapshot_meta(root, hostname, kernel)
    write_netlink_readme(root)
    write_netlink(root, hostname, fns)
    write_ethtool_stats(root, fns)     # issue 5: counters
    write_dcb(root, hostname, fns)
    write_health(root, hostname, fns)  # issue 7 follow-up: devlink health, link state
    samples_phy.write_modules(root, hostname, fns, nla, nla_str, nlmsg, nlmsg_err, ETHTOOL_GENL_ID)  # issue 18
    samples_phy.write_links(root, fns, nla, nla_str, nlmsg, ETHTOOL_GENL_ID)
    samples_phy.write_hwmon(root, hostname, fns)
    write_params(root, hostname, fns)  # issue 17: params
    # issue 24: RDMA netlink replies, resource owners, routed GIDs
    samples_rdma.write_rdma(root, hostname, fns, HW_COUNTERS, HW_NONZERO, nla, nla_str, nlmsg,
                            nlmsg_done, NL_PID, wfile)
    samples_rdma.write_gids(root, fns, wval, nla, nla_str, nlmsg, wfile)
    # issue 27: tunnel tables, RSS, the packet filter, IRQ placement, debugfs
    samples_views.write_views(root, hostname, fns, wfile, wval, nla, nla_str, nlmsg, ETHTOOL_GENL_ID)
    # issue 27: the PFC prevention timeout (ethtool tunable) and threaded NAPI
    samples_tunable.write_tunables(root, hostname, fns, wfile, wval)


def check_links(root):
    """Every symlink must resolve inside the tree."""
    bad = []
    for dp, dns, fns in os.walk(root):
        for n in dns + fns:
            p = os.path.join(dp, n)
            if os.path.islink(p):
                t = os.path.realpath(p)
                if not os.path.exists(t) or not t.startswith(os.path.realpath(root) + os.sep):
                    bad.append(p)
    if bad:
        sys.exit("dangling or escaping symlinks:\n  " + "\n  ".join(bad))


HOSTS = {"cx5-ofed": build_cx5_ofed, "cx6dx-upstream": build_cx6dx_upstream}


def stamp_content(root):
    """Record a digest of the whole tree in mlxcli-snapshot.json
    ("content_sha256": every path, symlink target and file, in sorted order,
    the meta file and the README left out), so that mlxcli can tell a user's
    working copy made from an older bundled sample (cmd/sample.c); a README
    edit changes no data and warns nobody."""
    h = hashlib.sha256()
    meta_path = os.path.join(root, "mlxcli-snapshot.json")
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files + [x for x in dirs if os.path.islink(os.path.join(d, x))]):
            p = os.path.join(d, f)
            if p in (meta_path, os.path.join(root, "README.md")):
                continue
            h.update(os.path.relpath(p, root).encode() + b"\0")
            if os.path.islink(p):
                h.update(b"->" + os.readlink(p).encode() + b"\0")
            else:
                with open(p, "rb") as fp:
                    h.update(fp.read())
    meta = json.load(open(meta_path))
    meta["content_sha256"] = h.hexdigest()
    wfile(meta_path, json.dumps(meta, indent=2, sort_keys=True) + "\n", 0o644)


def main():
    for name in sorted(HOSTS):
        root = os.path.join(OUT, name)
        # Keep the hand-written README.md, rebuild everything else.
        readme = os.path.join(root, "README.md")
        saved = open(readme, "rb").read() if os.path.exists(readme) else None
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        HOSTS[name](root)
        if saved is not None:
            wfile(readme, saved, 0o644)
        check_links(root)
        stamp_content(root)
        print("generated", os.path.relpath(root, os.getcwd()))


if __name__ == "__main__":
    main()
