/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pure decoders for PCI configuration space: bytes in, struct out; no I/O.
 * Layouts follow the PCI Express Base Specification and the kernel's
 * include/uapi/linux/pci_regs.h (offsets cited beside each field).
 */
#ifndef MLX_PCICFG_H
#define MLX_PCICFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MLX_PCI_CFG_STD_SIZE 256
#define MLX_PCI_CFG_EXT_SIZE 4096
#define MLX_PCI_MAX_CAPS 48

/* Standard capability IDs (pci_regs.h PCI_CAP_ID_*). */
#define MLX_PCI_CAP_PM    0x01
#define MLX_PCI_CAP_VPD   0x03
#define MLX_PCI_CAP_MSI   0x05
#define MLX_PCI_CAP_VNDR  0x09
#define MLX_PCI_CAP_EXP   0x10
#define MLX_PCI_CAP_MSIX  0x11
/* Extended capability IDs (PCI_EXT_CAP_ID_*). */
#define MLX_PCI_EXT_CAP_ERR   0x01
#define MLX_PCI_EXT_CAP_DSN   0x03
#define MLX_PCI_EXT_CAP_VNDR  0x0b
#define MLX_PCI_EXT_CAP_ACS   0x0d
#define MLX_PCI_EXT_CAP_ARI   0x0e
#define MLX_PCI_EXT_CAP_SRIOV 0x10
#define MLX_PCI_EXT_CAP_SECPCI 0x19

struct mlx_pci_cap {
	uint16_t offset;
	uint16_t id;
	bool extended;
	uint8_t version;       /* extended caps: header bits 19:16 */
};

/* Link speed as the PCIe "Supported Link Speeds" encoding: 1 = 2.5GT/s,
 * 2 = 5GT/s, 3 = 8GT/s, 4 = 16GT/s, 5 = 32GT/s, 6 = 64GT/s; 0 unknown. */
struct mlx_pcie_link {
	uint8_t speed;
	uint8_t width;         /* lanes; 0 unknown */
};

struct mlx_pcie_info {
	bool present;
	uint16_t offset;
	uint8_t version;       /* Express capability version (flags 3:0) */
	uint8_t port_type;     /* flags 7:4: 0 endpoint, ... */
	struct mlx_pcie_link cap;    /* LnkCap  (+0x0c) */
	struct mlx_pcie_link sta;    /* LnkSta  (+0x12) */
	uint16_t max_payload_cap;    /* DevCap  (+0x04) bits 2:0, bytes */
	uint16_t max_payload;        /* DevCtl  (+0x08) bits 7:5, bytes */
	uint16_t max_read_req;       /* DevCtl  bits 14:12, bytes */
	uint16_t devsta;             /* DevSta  (+0x0a) raw */
};

struct mlx_sriov_info {
	bool present;
	uint16_t offset;
	uint32_t caps;               /* +0x04 */
	uint16_t ctrl;               /* +0x08 */
	uint16_t status;             /* +0x0a */
	uint16_t initial_vfs;        /* +0x0c */
	uint16_t total_vfs;          /* +0x0e */
	uint16_t num_vfs;            /* +0x10 */
	uint8_t func_dep_link;       /* +0x12 */
	uint16_t vf_offset;          /* +0x14 */
	uint16_t vf_stride;          /* +0x16 */
	uint16_t vf_device;          /* +0x1a */
	uint32_t sup_pgsize;         /* +0x1c */
	uint32_t sys_pgsize;         /* +0x20 */
};

struct mlx_pci_config {
	size_t len;                  /* bytes that were available */
	uint16_t vendor, device;     /* 0x00, 0x02 */
	uint16_t command, status;    /* 0x04, 0x06 */
	uint8_t revision;            /* 0x08 */
	uint32_t class_code;         /* 0x09..0x0b, 24 bits */
	uint8_t header_type;         /* 0x0e (bit 7 = multi-function) */
	uint16_t subsys_vendor, subsys_device;  /* 0x2c, 0x2e (type 0) */

	/* Every capability found, standard list first, in list order. */
	size_t ncaps;
	struct mlx_pci_cap caps[MLX_PCI_MAX_CAPS];

	/* Standard capabilities point past len: e.g. the 64 bytes an
	 * unprivileged reader gets from sysfs. */
	bool std_caps_truncated;
	/* Config space ends before 0x100: extended capabilities unknown. */
	bool ext_caps_truncated;
	/* A loop, a pointer out of range or too many caps: list cut short. */
	bool caps_malformed;

	struct mlx_pcie_info pcie;
	struct mlx_sriov_info sriov;
	uint16_t vpd_offset;         /* 0 = none */
	uint16_t vsec_offset;        /* standard vendor-specific cap, 0 = none */
	uint8_t vsec_len;            /* its length byte (+2) */
	uint16_t aer_offset;         /* 0 = none */
	uint16_t ari_offset;
	uint16_t dsn_offset;
	uint64_t dsn;                /* device serial number if dsn_offset */
};

/*
 * Decode @len bytes of config space.  Needs at least the 64-byte header
 * (-EINVAL otherwise).  Never reads past @len; a truncated or malformed
 * capability list is reported in the flags, not as an error.
 */
int mlx_pci_config_decode(const uint8_t *buf, size_t len, struct mlx_pci_config *out);

/* Find a capability in a decoded config; NULL when absent. */
const struct mlx_pci_cap *mlx_pci_find_cap(const struct mlx_pci_config *cfg,
					   bool extended, uint16_t id);

/* "2.5GT/s", "5GT/s", "8GT/s", "16GT/s", "32GT/s", "64GT/s" or "unknown". */
const char *mlx_pcie_speed_str(uint8_t speed);
/* Parse the kernel's sysfs spelling ("8.0 GT/s PCIe", "16.0 GT/s PCIe",
 * "2.5 GT/s") back to the encoding; 0 when not recognised. */
uint8_t mlx_pcie_speed_from_sysfs(const char *s);
/* Capability names as lspci prints them, for reports; "" if unnamed. */
const char *mlx_pci_cap_name(bool extended, uint16_t id);

#endif /* MLX_PCICFG_H */
