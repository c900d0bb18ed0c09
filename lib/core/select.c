/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device selection (DESIGN.md "Device selection").  -d takes:
 *   0000:5e:00.0, 5e:00.0      PCI address, hex, as lspci prints it
 *   "94 0 0", 94:0.0           the decimal bus/dev/func mlxtool users type
 *   enp94s0f0np0, mlx5_0       a netdev or an RDMA device
 * Hex is the canonical spelling (two hex digits for bus and device); a
 * spelling that is not canonical and holds only decimal digits is read the
 * mlxtool way, so "8:0.0" and "8 0 0" both mean 0000:08:00.0 and "94 0 0"
 * means 0000:5e:00.0.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "device.h"
#include "mlx-private.h"

static bool all(const char *s, size_t n, int (*pred)(int))
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!pred((unsigned char)s[i]))
			return false;
	return true;
}

static int parse_num(const char *s, size_t n, int base, unsigned max, unsigned *out)
{
	unsigned long v = 0;

	if (n == 0 || n > 8)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i], d;

		if (isdigit(c))
			d = c - '0';
		else if (base == 16 && isxdigit(c))
			d = tolower(c) - 'a' + 10;
		else
			return -EINVAL;
		v = v * (unsigned)base + (unsigned)d;
	}
	if (v > max)
		return -ERANGE;
	*out = (unsigned)v;
	return 0;
}

/* "[dddd:]bb:dd.f" with hex fields.  1 = parsed, 0 = not this form. */
static int parse_pci(const char *t, struct mlx_selector *sel)
{
	const char *dot = strrchr(t, '.'), *c2, *c1;
	size_t nb, nd;
	bool canonical;
	int base;

	if (!dot || !dot[1] || dot[2] || !isdigit((unsigned char)dot[1]))
		return 0;
	c2 = memrchr(t, ':', (size_t)(dot - t));
	if (!c2)
		return 0;
	c1 = c2 > t ? memrchr(t, ':', (size_t)(c2 - t)) : NULL;
	nd = (size_t)(dot - c2 - 1);
	nb = c1 ? (size_t)(c2 - c1 - 1) : (size_t)(c2 - t);
	const char *bs = c1 ? c1 + 1 : t;

	if (!all(bs, nb, isxdigit) || !all(c2 + 1, nd, isxdigit))
		return 0;
	canonical = nb == 2 && nd == 2;
	/* Non-canonical and purely decimal: the mlxtool reading. */
	base = (!canonical && !c1 && all(bs, nb, isdigit) && all(c2 + 1, nd, isdigit)) ? 10 : 16;
	if (c1) {
		if (!all(t, (size_t)(c1 - t), isxdigit) ||
		    parse_num(t, (size_t)(c1 - t), 16, 0xffff, &sel->domain) < 0)
			return -EINVAL;
		sel->has_domain = true;
	}
	if (parse_num(bs, nb, base, 0xff, &sel->bus) < 0 ||
	    parse_num(c2 + 1, nd, base, 0x1f, &sel->dev) < 0 ||
	    parse_num(dot + 1, 1, 10, 7, &sel->func) < 0)
		return -ERANGE;
	sel->kind = MLX_SEL_PCI;
	sel->reading = base == 10 ? MLX_READ_DECIMAL : MLX_READ_PCI;
	/* Digits only: what the other base makes of them, when it is an
	 * address too and a different one ("94:00.0" vs mlxtool's 94). */
	if (!c1 && all(bs, nb, isdigit) && all(c2 + 1, nd, isdigit) &&
	    parse_num(bs, nb, base == 10 ? 16 : 10, 0xff, &sel->other_bus) == 0 &&
	    parse_num(c2 + 1, nd, base == 10 ? 16 : 10, 0x1f, &sel->other_dev) == 0)
		sel->has_other = sel->other_bus != sel->bus || sel->other_dev != sel->dev;
	return 1;
}

/* "B D F", decimal, separated by blanks. */
static int parse_triple(const char *t, struct mlx_selector *sel)
{
	unsigned v[3];
	const char *p = t;

	for (int i = 0; i < 3; i++) {
		const char *s;

		while (*p == ' ' || *p == '\t')
			p++;
		s = p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == s)
			return 0;
		if (parse_num(s, (size_t)(p - s), 10, i == 0 ? 255 : i == 1 ? 31 : 7, &v[i]) < 0)
			return -ERANGE;
		if (i < 2 && *p != ' ' && *p != '\t')
			return 0;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p)
		return 0;
	sel->kind = MLX_SEL_PCI;
	sel->reading = MLX_READ_DECIMAL;
	sel->bus = v[0];
	sel->dev = v[1];
	sel->func = v[2];
	return 1;
}

/* sel->text: the address as lspci prints it. */
static void normalise(struct mlx_selector *sel)
{
	if (sel->has_domain)
		snprintf(sel->text, sizeof(sel->text), "%04x:%02x:%02x.%u",
			 sel->domain, sel->bus, sel->dev, sel->func);
	else
		snprintf(sel->text, sizeof(sel->text), "%02x:%02x.%u",
			 sel->bus, sel->dev, sel->func);
}

bool mlx_selector_other_reading(const struct mlx_selector *sel, struct mlx_selector *other)
{
	if (sel->kind != MLX_SEL_PCI || !sel->has_other)
		return false;
	*other = *sel;
	other->reading = sel->reading == MLX_READ_PCI ? MLX_READ_DECIMAL : MLX_READ_PCI;
	other->bus = sel->other_bus;
	other->dev = sel->other_dev;
	other->other_bus = sel->bus;
	other->other_dev = sel->dev;
	normalise(other);
	return true;
}

int mlx_selector_parse(struct mlx_ctx *ctx, const char *text, struct mlx_selector *sel)
{
	int r;

	memset(sel, 0, sizeof(*sel));
	if (!text || !*text)
		return mlx_err(ctx, EINVAL, "empty device name");
	snprintf(sel->text, sizeof(sel->text), "%s", text);

	r = strchr(text, ' ') ? parse_triple(text, sel) : parse_pci(text, sel);
	if (r == 1) {
		normalise(sel);
		return 0;
	}
	if (r < 0)
		return mlx_err(ctx, EINVAL,
			       "invalid PCI address '%s': bus 0-255, device 0-31, function 0-7", text);
	if (strchr(text, ' '))
		return mlx_err(ctx, EINVAL,
			       "invalid device '%s': expected a PCI address, 'BUS DEV FUNC', a netdev or an RDMA device",
			       text);
	/* Netdev and RDMA names never hold ':' (the kernel refuses it), so a
	 * word with one is a PCI address gone wrong ("5e:00."), not a name. */
	if (strchr(text, ':'))
		return mlx_err(ctx, EINVAL,
			       "invalid PCI address '%s': expected [dddd:]bb:dd.f", text);
	/* A name: it will become a path component, so no '/', no "..". */
	if (!mlx_name_is_safe(text) || strlen(text) >= MLX_NAME_LEN)
		return mlx_err(ctx, EINVAL, "invalid device name '%s'", text);
	sel->kind = MLX_SEL_NAME;
	sel->reading = MLX_READ_NAME;
	snprintf(sel->name, sizeof(sel->name), "%s", text);
	return 0;
}

int mlx_select(struct mlx_ctx *ctx, const struct mlx_devices *devs,
	       const struct mlx_selector *sel,
	       struct mlx_function **fnp, struct mlx_port **portp)
{
	struct mlx_function *hit = NULL;
	struct mlx_port *hport = NULL;
	unsigned nhits = 0;

	*fnp = NULL;
	if (portp)
		*portp = NULL;
	for (size_t i = 0; i < devs->nfn; i++) {
		struct mlx_function *fn = &devs->fn[i];

		if (sel->kind == MLX_SEL_PCI) {
			if (fn->bus != sel->bus || fn->dev != sel->dev || fn->func != sel->func)
				continue;
			if (sel->has_domain && fn->domain != sel->domain)
				continue;
			if (!hit)
				hit = fn;
			nhits++;
			continue;
		}
		for (size_t k = 0; k < fn->nports; k++) {
			if (!strcmp(fn->ports[k].ifname, sel->name)) {
				hit = fn;
				hport = &fn->ports[k];
				nhits = 1;
			}
		}
		for (size_t k = 0; k < fn->nrdma && !hit; k++) {
			if (!strcmp(fn->rdma[k].name, sel->name)) {
				hit = fn;
				nhits = 1;
				/* An RDMA device with one port selects that port. */
				for (size_t j = 0; j < fn->nports; j++)
					if (!strcmp(fn->ports[j].rdma_dev, sel->name))
						hport = &fn->ports[j];
			}
		}
		if (hit)
			break;
	}
	if (!hit)
		return mlx_err(ctx, ENODEV, "no ConnectX device '%s'", sel->text);
	if (nhits > 1)
		return mlx_err(ctx, EINVAL,
			       "'%s' matches functions in %u PCI domains; give the domain (dddd:bb:dd.f)",
			       sel->text, nhits);
	*fnp = hit;
	if (portp)
		*portp = hport;
	return 0;
}
