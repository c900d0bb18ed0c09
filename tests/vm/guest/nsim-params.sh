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
#   - params set of a driverinit parameter (DEVLINK_CMD_PARAM_SET, cmode
#     driverinit) writes what devlink then shows, reads it back, says in
#     its change record that it takes effect at the next reload; --dry-run
#     writes nothing;
#   - dbg sw-reset --any-device -d netdevsim/netdevsimN reloads it
#     (driver_reinit) and the value stays;
#   - state holds no driverinit parameter (it holds what changes at run
#     time; netdevsim of 6.1 has no runtime parameter).
# mlx5's parameters (flow_steering_mode, enable_roce, the permanent
# enable_sriov/total_vfs, ...) stay on captures (tests/cli/params.sh,
# tests/cli/nv-params.sh).
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

# a driverinit value is set for the next reload: read back from devlink,
# the change record says the reload; a dry run writes nothing
before=$(dl)
run psd params set --any-netdev -d "$nsim_if" max_macs=8 --dry-run
check "params set --dry-run: exit 0" "$rc" 0
check "... nothing written" "$(dl)" "$before"
run ps -j params set --any-netdev -d "$nsim_if" max_macs=8
check "params set of a driverinit parameter: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/ps.err"
check "... devlink's driverinit value" "$(devlink -j dev param show | jq -c --arg h "$nsim" \
	'[.param[$h][] | select(.name == "max_macs") | .values[] | [.cmode, .value]]')" '[["driverinit",8]]'
check "... the change record: 16 -> 8, the reload said" \
	"$(jq -c '.changes[0] | [.setting, .old, .new, (.note | test("next devlink reload"))]' "$tmp/ps.out")" \
	'["max_macs",16,8,true]'
run p2 -j params --any-netdev -d "$nsim_if"
check "params reads it back" "$(ml "$tmp/p2.out" 2>/dev/null)" "$(dl)"
# the reload that makes it take effect: devlink reload driver_reinit of
# the netdevsim device (dev.c nsim_dev_reload_up reads the driverinit
# values back), the port's netdev made again
run rl -j dbg sw-reset --any-device -d "$nsim" --yes
check "dbg sw-reset --any-device: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/rl.err"
check "... the devlink handle and action" "$(jq -c '[.devlink_handle, .action]' "$tmp/rl.out")" \
	"[\"$nsim\",\"driver_reinit\"]"
check "after the reload: max_macs 8 still, as devlink shows" "$(dl)" \
	'[["max_macs","driver-reload","8"],["test1","driver-reload","false"]]'
i=0
while [ -z "$(ls "$nsim_dir/net" 2>/dev/null)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
nsim_if=$(ls "$nsim_dir/net" 2>/dev/null | sort | head -n 1)

# a permanent value would be refused; netdevsim has none (tests/cli/nv-params.sh)
run st -j state --any-netdev -d "$nsim_if"
check "state: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/st.err"
check "state: no driverinit parameter in it" "$(grep -c '"max_macs"\|"test1"' "$tmp/st.out")" 0
finish
