/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI configuration space decoder: bytes in, struct mlx_pci_config out.
 *
 * The input is whatever a reader could get: 4096 bytes as root, 256 on
 * kernels without extended config access, 64 for an unprivileged sysfs
 * read or an `lspci -x` dump.  So every read goes through cfg_get(), which
 * refuses to touch a byte at or past @len, and running out of bytes is
 * reported in flags rather than as an error.
 *
 * Register offsets follow the PCI Express Base Specification (chapter 7)
 * and the kernel's include/uapi/linux/pci_regs.h.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "pcicfg.h"

/* pci_regs.h: PCI_STATUS_CAP_LIST, PCI_CAPABILITY_LIST, PCI_CB_CAPABILITY_LIST */
#define CFG_STATUS_CAP_LIST 0x10
#define CFG_CAP_PTR         0x34
#define CFG_CB_CAP_PTR      0x14
#define CFG_HEADER_SIZE     0x40
#define CFG_EXT_START       0x100

/*
 * The one bounds-checked reader: @width bytes little-endian at @off.
 * Config space is little-endian on every architecture (PCI Local Bus
 * spec 6.1), so assemble from bytes instead of casting.
 */
static bool cfg_get(const uint8_t *buf, size_t len, size_t off, unsigned int width,
		    uint32_t *val)
{
	uint32_t v = 0;

	if (off > len || width > len - off)
		return false;
	for (unsigned int i = 0; i < width; i++)
		v |= (uint32_t)buf[off + i] << (8 * i);
	*val = v;
	return true;
}

static uint8_t get8(const uint8_t *buf, size_t len, size_t off, bool *ok)
{
	uint32_t v = 0;

	*ok = cfg_get(buf, len, off, 1, &v);
	return (uint8_t)v;
}

static uint16_t get16(const uint8_t *buf, size_t len, size_t off, bool *ok)
{
	uint32_t v = 0;

	*ok = cfg_get(buf, len, off, 2, &v);
	return (uint16_t)v;
}

static uint32_t get32(const uint8_t *buf, size_t len, size_t off, bool *ok)
{
	uint32_t v = 0;

	*ok = cfg_get(buf, len, off, 4, &v);
	return v;
}

/* PCIe Link Capabilities/Status: speed bits 3:0, width bits 9:4. */
static void decode_link(uint32_t reg, struct mlx_pcie_link *l)
{
	l->speed = reg & 0xf;
	l->width = (reg >> 4) & 0x3f;
}

/*
 * PCI Express capability (PCIe Base 7.5.3; pci_regs.h PCI_EXP_*).
 * Each field is filled only when all of its bytes were read, so a cap cut
 * by @len leaves the missing fields at 0 ("unknown").
 */
static void decode_pcie(const uint8_t *buf, size_t len, uint16_t off,
			struct mlx_pcie_info *p)
{
	uint32_t v;
	bool ok;

	p->present = true;
	p->offset = off;

	v = get16(buf, len, off + 0x02, &ok);           /* PCI_EXP_FLAGS */
	if (ok) {
		p->version = v & 0xf;
		p->port_type = (v >> 4) & 0xf;
	}
	v = get32(buf, len, off + 0x04, &ok);           /* PCI_EXP_DEVCAP */
	if (ok)
		p->max_payload_cap = (uint16_t)(128u << (v & 0x7));
	v = get16(buf, len, off + 0x08, &ok);           /* PCI_EXP_DEVCTL */
	if (ok) {
		p->max_payload = (uint16_t)(128u << ((v >> 5) & 0x7));
		p->max_read_req = (uint16_t)(128u << ((v >> 12) & 0x7));
	}
	v = get16(buf, len, off + 0x0a, &ok);           /* PCI_EXP_DEVSTA */
	if (ok)
		p->devsta = (uint16_t)v;
	v = get32(buf, len, off + 0x0c, &ok);           /* PCI_EXP_LNKCAP */
	if (ok)
		decode_link(v, &p->cap);
	v = get16(buf, len, off + 0x12, &ok);           /* PCI_EXP_LNKSTA */
	if (ok)
		decode_link(v, &p->sta);
}

/* SR-IOV extended capability (SR-IOV spec 3.3; pci_regs.h PCI_SRIOV_*):
 * each register at its offset, with the width of its field. */
#define SRIOV_REG(o, f) { o, sizeof(((struct mlx_sriov_info *)0)->f), \
			  offsetof(struct mlx_sriov_info, f) }
static const struct {
	uint8_t off, width;
	size_t field;
} sriov_regs[] = {
	SRIOV_REG(0x04, caps), SRIOV_REG(0x08, ctrl), SRIOV_REG(0x0a, status),
	SRIOV_REG(0x0c, initial_vfs), SRIOV_REG(0x0e, total_vfs), SRIOV_REG(0x10, num_vfs),
	SRIOV_REG(0x12, func_dep_link), SRIOV_REG(0x14, vf_offset),
	SRIOV_REG(0x16, vf_stride), SRIOV_REG(0x1a, vf_device), SRIOV_REG(0x1c, sup_pgsize),
	SRIOV_REG(0x20, sys_pgsize),
};

static void decode_sriov(const uint8_t *buf, size_t len, uint16_t off,
			 struct mlx_sriov_info *s)
{
	s->present = true;
	s->offset = off;
	for (size_t i = 0; i < sizeof(sriov_regs) / sizeof(sriov_regs[0]); i++) {
		uint32_t v;
		uint8_t *f = (uint8_t *)s + sriov_regs[i].field;

		/* a register past the end of what was read stays 0 */
		if (!cfg_get(buf, len, off + sriov_regs[i].off, sriov_regs[i].width, &v))
			continue;
		if (sriov_regs[i].width == 1)
			*f = (uint8_t)v;
		else if (sriov_regs[i].width == 2)
			memcpy(f, &(uint16_t){ (uint16_t)v }, 2);
		else
			memcpy(f, &v, 4);
	}
}

static bool add_cap(struct mlx_pci_config *c, uint16_t off, uint16_t id,
		    bool ext, uint8_t ver)
{
	if (c->ncaps >= MLX_PCI_MAX_CAPS) {
		c->caps_malformed = true;
		return false;
	}
	c->caps[c->ncaps].offset = off;
	c->caps[c->ncaps].id = id;
	c->caps[c->ncaps].extended = ext;
	c->caps[c->ncaps].version = ver;
	c->ncaps++;
	return true;
}

/* Only the first instance of each capability is decoded, as the kernel's
 * pci_find_capability() would find it. */
static void decode_std_cap(const uint8_t *buf, size_t len, uint16_t off,
			   uint8_t id, struct mlx_pci_config *c)
{
	bool ok;
	uint8_t v;

	switch (id) {
	case MLX_PCI_CAP_EXP:
		if (!c->pcie.present)
			decode_pcie(buf, len, off, &c->pcie);
		break;
	case MLX_PCI_CAP_VPD:
		if (!c->vpd_offset)
			c->vpd_offset = off;
		break;
	case MLX_PCI_CAP_VNDR:
		/* PCI Local Bus 6.8.4: +2 is the length of the whole cap;
		 * the Mellanox CR-space window lives here (reference §6.1). */
		if (!c->vsec_offset) {
			c->vsec_offset = off;
			v = get8(buf, len, off + 2, &ok);
			if (ok)
				c->vsec_len = v;
		}
		break;
	default:
		break;
	}
}

static void decode_ext_cap(const uint8_t *buf, size_t len, uint16_t off,
			   uint16_t id, struct mlx_pci_config *c)
{
	uint32_t lo, hi;
	bool ok_lo, ok_hi;

	switch (id) {
	case MLX_PCI_EXT_CAP_ERR:
		if (!c->aer_offset)
			c->aer_offset = off;
		break;
	case MLX_PCI_EXT_CAP_ARI:
		if (!c->ari_offset)
			c->ari_offset = off;
		break;
	case MLX_PCI_EXT_CAP_DSN:
		/* PCIe Base 7.9.3: serial number lower dword at +4, upper at +8. */
		if (!c->dsn_offset) {
			c->dsn_offset = off;
			lo = get32(buf, len, off + 4, &ok_lo);
			hi = get32(buf, len, off + 8, &ok_hi);
			if (ok_lo && ok_hi)
				c->dsn = ((uint64_t)hi << 32) | lo;
		}
		break;
	case MLX_PCI_EXT_CAP_SRIOV:
		if (!c->sriov.present)
			decode_sriov(buf, len, off, &c->sriov);
		break;
	default:
		break;
	}
}

/*
 * Standard list (PCI Local Bus 6.7): a byte pointer at 0x34 (0x14 for a
 * CardBus bridge), each cap an ID byte and a next byte.  The low two bits
 * of a pointer are reserved, as the kernel's __pci_find_next_cap_ttl()
 * masks them.  Pointers into the header (< 0x40) are invalid.
 */
static void walk_std(const uint8_t *buf, size_t len, struct mlx_pci_config *c)
{
	uint8_t seen[256 / 8] = { 0 };
	size_t ptr_reg = (c->header_type & 0x7f) == 2 ? CFG_CB_CAP_PTR : CFG_CAP_PTR;
	uint8_t ptr, id, next;
	bool ok;

	ptr = get8(buf, len, ptr_reg, &ok) & ~3u;
	if (!ok)
		return;
	while (ptr) {
		if (ptr < CFG_HEADER_SIZE) {
			c->caps_malformed = true;
			return;
		}
		if ((size_t)ptr + 2 > len) {
			c->std_caps_truncated = true;
			return;
		}
		if (seen[ptr / 8] & (1u << (ptr % 8))) {
			c->caps_malformed = true;
			return;
		}
		seen[ptr / 8] |= (uint8_t)(1u << (ptr % 8));

		id = get8(buf, len, ptr, &ok);
		next = get8(buf, len, ptr + 1u, &ok) & ~3u;
		if (!add_cap(c, ptr, id, false, 0))
			return;
		decode_std_cap(buf, len, ptr, id, c);
		ptr = next;
	}
}

/*
 * Extended list (PCIe Base 7.6.3): starts at 0x100, each header a dword
 * with ID 15:0, version 19:16, next 31:20.  The kernel's
 * pci_find_next_ext_capability() treats 0 and ~0 as "no capabilities";
 * an ~0 also means the device or the reader could not supply the bytes.
 */
static void walk_ext(const uint8_t *buf, size_t len, struct mlx_pci_config *c)
{
	uint8_t seen[MLX_PCI_CFG_EXT_SIZE / 4 / 8] = { 0 };
	size_t off = CFG_EXT_START;
	uint32_t hdr, next;
	bool ok;

	if (len < CFG_EXT_START + 4) {
		c->ext_caps_truncated = true;
		return;
	}
	for (;;) {
		hdr = get32(buf, len, off, &ok);
		if (!ok) {
			/* A pointer beyond what was read: the list goes on
			 * but we cannot follow it. */
			c->ext_caps_truncated = true;
			return;
		}
		if (hdr == 0 || hdr == 0xffffffffu)
			return;
		if (seen[off / 4 / 8] & (1u << (off / 4 % 8))) {
			c->caps_malformed = true;
			return;
		}
		seen[off / 4 / 8] |= (uint8_t)(1u << (off / 4 % 8));

		if (!add_cap(c, (uint16_t)off, hdr & 0xffff, true, (hdr >> 16) & 0xf))
			return;
		decode_ext_cap(buf, len, (uint16_t)off, hdr & 0xffff, c);

		next = hdr >> 20;
		if (next == 0)
			return;
		if (next < CFG_EXT_START || (next & 3)) {
			c->caps_malformed = true;
			return;
		}
		off = next;
	}
}

int mlx_pci_config_decode(const uint8_t *buf, size_t len, struct mlx_pci_config *out)
{
	uint32_t v;
	bool ok;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!buf || len < CFG_HEADER_SIZE)
		return -EINVAL;

	/* Type 0/1 common header (pci_regs.h PCI_VENDOR_ID .. PCI_HEADER_TYPE);
	 * len >= 64 makes these reads succeed, ok is checked anyway. */
	out->len = len;
	out->vendor = get16(buf, len, 0x00, &ok);
	out->device = get16(buf, len, 0x02, &ok);
	out->command = get16(buf, len, 0x04, &ok);
	out->status = get16(buf, len, 0x06, &ok);
	out->revision = get8(buf, len, 0x08, &ok);
	v = 0;
	if (cfg_get(buf, len, 0x09, 3, &v))
		out->class_code = v;
	out->header_type = get8(buf, len, 0x0e, &ok);
	if ((out->header_type & 0x7f) == 0) {
		out->subsys_vendor = get16(buf, len, 0x2c, &ok);
		out->subsys_device = get16(buf, len, 0x2e, &ok);
	}

	if (out->status & CFG_STATUS_CAP_LIST)
		walk_std(buf, len, out);
	walk_ext(buf, len, out);
	return 0;
}

const struct mlx_pci_cap *mlx_pci_find_cap(const struct mlx_pci_config *cfg,
					   bool extended, uint16_t id)
{
	if (!cfg)
		return NULL;
	for (size_t i = 0; i < cfg->ncaps && i < MLX_PCI_MAX_CAPS; i++)
		if (cfg->caps[i].extended == extended && cfg->caps[i].id == id)
			return &cfg->caps[i];
	return NULL;
}

/* Index = the Link Speeds encoding (PCIe Base 7.5.3.18, LnkCap2 vector). */
static const char *const speed_names[] = {
	[1] = "2.5GT/s", [2] = "5GT/s", [3] = "8GT/s",
	[4] = "16GT/s", [5] = "32GT/s", [6] = "64GT/s",
};

const char *mlx_pcie_speed_str(uint8_t speed)
{
	if (speed < sizeof(speed_names) / sizeof(speed_names[0]) && speed_names[speed])
		return speed_names[speed];
	return "unknown";
}

/*
 * The kernel's current_link_speed / max_link_speed attributes print
 * pci_speed_string() (drivers/pci/probe.c): "8.0 GT/s PCIe" since 4.17,
 * "8 GT/s" / "2.5 GT/s" before; "Unknown" when the link is down.
 */
static const struct {
	const char *text;
	uint8_t speed;
} sysfs_speeds[] = {
	{ "2.5 GT/s", 1 },
	{ "5.0 GT/s", 2 }, { "5 GT/s", 2 },
	{ "8.0 GT/s", 3 }, { "8 GT/s", 3 },
	{ "16.0 GT/s", 4 }, { "16 GT/s", 4 },
	{ "32.0 GT/s", 5 }, { "32 GT/s", 5 },
	{ "64.0 GT/s", 6 }, { "64 GT/s", 6 },
};

static bool only_space(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\n' && *s != '\t')
			return false;
	return true;
}

uint8_t mlx_pcie_speed_from_sysfs(const char *s)
{
	if (!s)
		return 0;
	for (size_t i = 0; i < sizeof(sysfs_speeds) / sizeof(sysfs_speeds[0]); i++) {
		size_t n = strlen(sysfs_speeds[i].text);
		const char *rest = s + n;

		if (strncmp(s, sysfs_speeds[i].text, n) != 0)
			continue;
		/* The sysfs file ends in a newline; newer kernels add " PCIe". */
		if (strncmp(rest, " PCIe", 5) == 0)
			rest += 5;
		if (only_space(rest))
			return sysfs_speeds[i].speed;
	}
	return 0;
}

/* Names as lspci prints them (pciutils ls-caps.c, ls-ecaps.c) without the
 * "<?>" or detail suffixes, so a report reads like the lspci output users
 * already know.  IDs lspci does not name stay "". */
static const char *const std_cap_names[] = {
	[0x01] = "Power Management",
	[0x02] = "AGP",
	[0x03] = "Vital Product Data",
	[0x04] = "Slot ID",
	[0x05] = "MSI",
	[0x06] = "CompactPCI hot-swap",
	[0x07] = "PCI-X",
	[0x08] = "HyperTransport",
	[0x09] = "Vendor Specific Information",
	[0x0a] = "Debug port",
	[0x0b] = "CompactPCI central resource control",
	[0x0c] = "Hot-plug capable",
	[0x0d] = "Subsystem",
	[0x0e] = "AGP3",
	[0x0f] = "Secure device",
	[0x10] = "Express",
	[0x11] = "MSI-X",
	[0x12] = "SATA HBA",
	[0x13] = "PCI Advanced Features",
	[0x14] = "Enhanced Allocation (EA)",
	[0x15] = "Flattening Portal Bridge (FPB)",
};

static const char *const ext_cap_names[] = {
	[0x01] = "Advanced Error Reporting",
	[0x02] = "Virtual Channel",
	[0x03] = "Device Serial Number",
	[0x04] = "Power Budgeting",
	[0x05] = "Root Complex Link",
	[0x06] = "Root Complex Internal Link",
	[0x07] = "Root Complex Event Collector",
	[0x08] = "Multi-Function Virtual Channel",
	[0x09] = "Virtual Channel",
	[0x0a] = "Root Complex Register Block",
	[0x0b] = "Vendor Specific Information",
	[0x0c] = "Configuration Access Correlation",
	[0x0d] = "Access Control Services",
	[0x0e] = "Alternative Routing-ID Interpretation (ARI)",
	[0x0f] = "Address Translation Service (ATS)",
	[0x10] = "Single Root I/O Virtualization (SR-IOV)",
	[0x11] = "Multi-Root I/O Virtualization",
	[0x12] = "Multicast",
	[0x13] = "Page Request Interface (PRI)",
	[0x15] = "Physical Resizable BAR",
	[0x16] = "Dynamic Power Allocation",
	[0x17] = "Transaction Processing Hints",
	[0x18] = "Latency Tolerance Reporting",
	[0x19] = "Secondary PCI Express",
	[0x1a] = "Protocol Multiplexing",
	[0x1b] = "Process Address Space ID (PASID)",
	[0x1c] = "LN Requester",
	[0x1d] = "Downstream Port Containment",
	[0x1e] = "L1 PM Substates",
	[0x1f] = "Precision Time Measurement",
	[0x20] = "PCI Express over M_PHY",
	[0x21] = "FRS Queueing",
	[0x22] = "Readiness Time Reporting",
	[0x23] = "Designated Vendor-Specific",
	[0x24] = "Virtual Resizable BAR",
	[0x25] = "Data Link Feature",
	[0x26] = "Physical Layer 16.0 GT/s",
	[0x27] = "Lane Margining at the Receiver",
	[0x28] = "Hierarchy ID",
	[0x29] = "Native PCIe Enclosure Management",
};

const char *mlx_pci_cap_name(bool extended, uint16_t id)
{
	const char *const *names = extended ? ext_cap_names : std_cap_names;
	size_t n = extended ? sizeof(ext_cap_names) / sizeof(ext_cap_names[0])
			    : sizeof(std_cap_names) / sizeof(std_cap_names[0]);

	if (id < n && names[id])
		return names[id];
	return "";
}
