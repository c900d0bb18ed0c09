#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# devlink parameters through mlxcli's own code on a real kernel driver:
# netdevsim's (drivers/net/netdevsim/dev.c nsim_devlink_params: the
# generic max_macs and the driver's test1, both cmode driverinit on 6.1)
# in the kernel lab, with --any-netdev -d naming its port:
#   - params lists every parameter and configuration mode devlink dev
#     param show lists, with its value and when it applies (driverinit:
#     at a driver reload; permanent: at a firmware reset);
#   - a value changed behind mlxcli's back (devlink dev param set ...
#     cmode driverinit) is what params reads next;
#   - params set of a driverinit parameter is refused (exit 4) before
#     anything is written, naming the devlink command and the reload it
#     needs on this device's own bus; devlink still shows the value;
#   - state holds no driverinit parameter (it holds what changes at run
#     time; netdevsim of 6.1 has no runtime parameter).
# mlx5's parameters (flow_steering_mode, enable_roce, the permanent
# enable_sriov/total_vfs, ...) stay on captures (tests/cli/params.sh).
# Runs in the kernel lab only (tests/vm); exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_lab
need jq devlink
make_nsim 1

# [name, applies, value] of every parameter and cmode, as devlink lists them
# (iproute2 6.1 wants a parameter name with a device: all, then its own)
dl() {
	devlink -j dev param show | jq -c --arg h "$nsim" '[.param[$h][] | .name as $n | .values[] |
		[$n, ({"runtime": "runtime", "driverinit": "driver-reload",
		       "permanent": "firmware-reset"}[.cmode]), (.value | tostring)]] | sort'
}
ml() {
	jq -c '[.params[].knobs[] | select(.source == "devlink") |
		[.name, .applies, (.current | tostring)]] | sort' "$1"
}

dl >"$tmp/dl0"
echo "devlink: $(cat "$tmp/dl0")"
[ "$(jq length "$tmp/dl0" 2>/dev/null)" -gt 0 ] 2>/dev/null ||
	{ bad "devlink dev param show lists nothing for $nsim: $(devlink -j dev param show 2>&1)"; finish; }
run p0 -j params --any-netdev -d "$nsim_if"
check "params: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/p0.err"
check "params: devlink's parameters, modes and values" "$(ml "$tmp/p0.out" 2>/dev/null)" "$(cat "$tmp/dl0")"
run pt params --any-netdev -d "$nsim_if"
grep -q 'test1' "$tmp/pt.out" && ok "params (text): test1 listed" || bad "params (text): $(cat "$tmp/pt.out")"

# changed by devlink itself: read again, not remembered
devlink dev param set "$nsim" name max_macs value 16 cmode driverinit
devlink dev param set "$nsim" name test1 value false cmode driverinit
run p1 -j params --any-netdev -d "$nsim_if"
check "params after devlink's own set: as devlink shows them" "$(ml "$tmp/p1.out" 2>/dev/null)" "$(dl)"
check "... max_macs 16, test1 false" \
	"$(jq -c '[.params[].knobs[] | select(.source == "devlink") | [.name, .current]] | sort' "$tmp/p1.out")" \
	'[["max_macs",16],["test1",false]]'

# a driverinit value is not set at run time: refused, nothing written,
# the message names the command for this device (netdevsim/..., not pci/)
before=$(dl)
run ps params set --any-netdev -d "$nsim_if" max_macs=8
check "params set of a driverinit parameter: exit 4" "$rc" 4
grep -q "devlink dev param set $nsim name max_macs value 8 cmode driverinit" "$tmp/ps.err" &&
	ok "  ... naming devlink's command on $nsim: $(cat "$tmp/ps.err")" || bad "params set: $(cat "$tmp/ps.err")"
check "refused: nothing written" "$(dl)" "$before"

run st -j state --any-netdev -d "$nsim_if"
check "state: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/st.err"
check "state: no driverinit parameter in it" "$(grep -c '"max_macs"\|"test1"' "$tmp/st.out")" 0
finish
