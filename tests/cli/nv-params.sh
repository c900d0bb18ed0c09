#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Firmware NV settings (issue 27): the devlink parameters with
# configuration mode permanent, which mlx5 registers for enable_sriov and
# total_vfs on a PF from Linux 6.17 (lib/nv_param.c) and which take effect
# after a firmware reset.  No capture in ../shared/fixtures holds one (the
# KERNELDOC examples show runtime and driverinit parameters only), the
# sample hosts' kernels (5.15, 6.1) predate them, and netdevsim has none
# (drivers/net/netdevsim/dev.c: max_macs and test1, driverinit), so they
# are added to a copy of cx6dx-upstream's recorded DEVLINK_CMD_PARAM_GET
# dump, laid out as net/devlink sends them (gen/samples_nvparams.py):
# enable_sriov true, total_vfs 8, cqe_compress_type balanced (a string),
# and max_sfs 0 (a u32 the catalogue does not know, as a newer kernel may
# list one), all permanent, on the PF 0000:3b:00.0.
# Then:
#   - params lists both with their values, applying at a firmware reset
#     (JSON applies "firmware-reset"; text APPLIES), the runtime and
#     driverinit parameters as before;
#   - params set of one writes it through DEVLINK_CMD_PARAM_SET with cmode
#     permanent (the emulator edits the recorded permanent value) after a
#     confirmation: without --yes off a terminal it is refused (exit 2),
#     nothing written; --dry-run shows the plan line and writes nothing;
#     the change record's note says NV and the firmware reset;
#   - total_vfs beyond its u16 range is exit 2 before anything is read;
#   - on a VF (cx5-ofed's) it is refused, naming the PF (exit 4); on a
#     kernel without them (the sample as it is) exit 4 naming mlxconfig;
#   - state carries them in "params", marked in "params_applies"; apply of
#     that state writes NV (and does nothing when NV matches); diff sees the
#     stored value; a state from before (no permanent knobs) applies.

. "$(dirname "$0")/lib.sh"
need jq python3

fresh nv cx6dx-upstream
cap=$tmp/nv
python3 "$TOP_SRCDIR/gen/samples_nvparams.py" nv-overlay "$cap" || bad "adding the permanent parameters"
IF=enp59s0f0np0

P() { "$MLXCLI" --sysroot "$cap" -j params -d $IF --source devlink; }
# the catalogued ones (max_sfs, which the catalogue lacks, has its own checks)
nv() { P | jq -c '[.params[0].knobs[] | select(.applies == "firmware-reset" and .name != "max_sfs") | [.name, .current]]'; }
sfs() { P | jq -c '[.params[0].knobs[] | select(.name == "max_sfs") | [.applies, .current]]'; }
run p -j --sysroot "$cap" params -d $IF --source devlink
check "params: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/p.err"
check "params: the permanent parameters, at a firmware reset" "$(nv)" '[["enable_sriov",true],["total_vfs",8],["cqe_compress_type","balanced"]]'
check "params: the others as before" \
	"$(jq -c '[.params[0].knobs[] | select(.applies != "firmware-reset")] | length' "$tmp/p.out")" \
	"$("$MLXCLI" --sample=cx6dx-upstream -j params -d $IF --source devlink 2>/dev/null |
		jq -c '[.params[0].knobs[]] | length')"
run pt --sysroot "$cap" params -d $IF --source devlink
grep -q '^enable_sriov  *true .*firmware-reset' "$tmp/pt.out" && ok "params (text): enable_sriov ... firmware-reset" ||
	bad "params (text): $(cat "$tmp/pt.out")"

# ---- params set: confirmed, dry-run, written with cmode permanent, read back
before=$(tree_sum "$cap" | md5sum)
run ps --sysroot "$cap" params set -d $IF enable_sriov=false </dev/null
check "params set without --yes off a terminal: exit 2" "$rc" 2
grep -q "enable_sriov on $IF: stored in the firmware's NV settings, in effect after a firmware reset.*--yes" \
	"$tmp/ps.err" && ok "  ... saying NV, the firmware reset and --yes" || bad "  refusal: $(cat "$tmp/ps.err")"
check "  ... nothing written" "$(tree_sum "$cap" | md5sum)" "$before"

run pd -j --sysroot "$cap" params set -d $IF enable_sriov=false --dry-run
check "params set --dry-run: exit 0" "$rc" 0
check "  ... the plan: true -> false, changed" \
	"$(jq -c '[.changes[] | select(.setting == "enable_sriov") | [.old, .new, .changed]]' "$tmp/pd.out")" \
	'[[true,false,true]]'
jq -r '.changes[0].note' "$tmp/pd.out" | grep -q "stored in firmware NV: takes effect after a firmware reset (mlxcli fw activate, or a cold reboot)" &&
	ok "  ... its note: NV, the firmware reset" || bad "  note: $(cat "$tmp/pd.out")"
run pdt --sysroot "$cap" params set -d $IF enable_sriov=false --dry-run
grep -q "enable_sriov: on -> off (stored in firmware NV: takes effect after a firmware reset" "$tmp/pdt.out" && ok "  ... the text plan line" ||
	bad "  text plan: $(cat "$tmp/pdt.out")"
check "  ... nothing written" "$(tree_sum "$cap" | md5sum)" "$before"

run range --sysroot "$cap" params set -d $IF total_vfs=70000 --yes
check "total_vfs 70000 (above the u16 mlx5 compares): exit 2" "$rc" 2
grep -q "total_vfs 70000 is out of its range 0..65535" "$tmp/range.err" && ok "  ... saying the range" ||
	bad "  range: $(cat "$tmp/range.err")"
run notnum --sysroot "$cap" params set -d $IF enable_sriov=maybe --yes
check "enable_sriov maybe: exit 2" "$rc" 2
run badword --sysroot "$cap" params set -d $IF cqe_compress_type=fast --yes
check "cqe_compress_type fast (balanced or aggressive): exit 2" "$rc" 2

run set -j --sysroot "$cap" params set -d $IF enable_sriov=false total_vfs=16 --yes
check "params set enable_sriov=false total_vfs=16 --yes: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/set.err"
check "  ... read back: NV holds them" "$(nv)" '[["enable_sriov",false],["total_vfs",16],["cqe_compress_type","balanced"]]'
check "  ... the change record" \
	"$(jq -c '[.changes[] | [.setting, .old, .new, .changed]]' "$tmp/set.out")" \
	'[["enable_sriov",true,false,true],["total_vfs",8,16,true]]'
run set2 --sysroot "$cap" params set -d $IF total_vfs=16
check "the same value again needs no --yes (nothing changes): exit 0" "$rc" 0

# ---- a permanent parameter the catalogue does not know (max_sfs, a u32):
# typed by the type the device reports, written with cmode permanent
check "params: an uncatalogued permanent parameter listed" "$(sfs)" '[["firmware-reset",0]]'
run sfs0 --sysroot "$cap" params set -d $IF max_sfs=4 </dev/null
check "params set max_sfs without --yes off a terminal: exit 2" "$rc" 2
run sfsd -j --sysroot "$cap" params set -d $IF max_sfs=4 --dry-run
check "  ... --dry-run: the plan typed as the device's u32" \
	"$(jq -c '[.changes[] | [.setting, .old, .new, .changed]]' "$tmp/sfsd.out")" '[["max_sfs",0,4,true]]'
jq -r '.changes[0].note' "$tmp/sfsd.out" | grep -q "stored in firmware NV" && ok "  ... its note says NV" ||
	bad "  max_sfs note: $(cat "$tmp/sfsd.out")"
run sfsbig --sysroot "$cap" params set -d $IF max_sfs=4294967296 --yes
check "max_sfs above a u32: exit 2" "$rc" 2
grep -q "max_sfs 4294967296 is out of its range 0..4294967295 on $IF (a devlink u32)" "$tmp/sfsbig.err" &&
	ok "  ... saying the devlink type's range" || bad "  max_sfs range: $(cat "$tmp/sfsbig.err")"
run sfsw --sysroot "$cap" params set -d $IF max_sfs=many --yes
check "max_sfs many: exit 2" "$rc" 2
run sfsok --sysroot "$cap" params set -d $IF max_sfs=4 --yes
check "params set max_sfs=4 --yes: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/sfsok.err"
check "  ... read back as the device's u32" "$(sfs)" '[["firmware-reset",4]]'
run nosuch --sysroot "$cap" params set -d $IF no_such_param=4 --yes
check "a name neither the catalogue nor the device has: exit 2" "$rc" 2

# (the request's cmode is permanent: the emulator edits the recorded value
# of the request's cmode, and the dump holds only the permanent one)

# ---- a VF: mlx5 registers them on the PF only; a kernel without them
run vf --sample=cx5-ofed params set -d enp94s0f2 enable_sriov=false --yes
check "params set on a VF: exit 4" "$rc" 4
grep -q "cannot set enable_sriov on enp94s0f2: it is a VF.*give its PF 0000:5e:00.0" "$tmp/vf.err" &&
	ok "  ... naming its PF" || bad "  VF: $(cat "$tmp/vf.err")"
run old --sample=cx6dx-upstream params set -d $IF total_vfs=4 --yes
check "params set on a kernel without them: exit 4" "$rc" 4
grep -q "reports no total_vfs (devlink cmode permanent: mlx5 registers it from Linux 6.17 on).*mlxconfig" \
	"$tmp/old.err" && ok "  ... saying which kernel has them" || bad "  old kernel: $(cat "$tmp/old.err")"

# ---- state, apply, diff
run st -j --sysroot "$cap" state -d $IF
check "state: exit 0" "$rc" 0
check "state: the NV values in params" \
	"$(jq -c '.ports[0].params | [.enable_sriov, .total_vfs, .cqe_compress_type, .max_sfs]' "$tmp/st.out")" \
	'[false,16,"balanced",4]'
check "state: marked as applying at a firmware reset" \
	"$(jq -c '.ports[0].params_applies' "$tmp/st.out")" '{"enable_sriov":"firmware-reset","total_vfs":"firmware-reset","cqe_compress_type":"firmware-reset","max_sfs":"firmware-reset"}'
run stt --sysroot "$cap" state -d $IF
grep -q "params.total_vfs: stored in firmware NV, applies at a firmware-reset" "$tmp/stt.out" &&
	ok "state (text): the mark" || bad "state (text): $(grep total_vfs "$tmp/stt.out")"

# apply of the state as it is: nothing to do
before=$(tree_sum "$cap" | md5sum)
run a0 -j --sysroot "$cap" apply "$tmp/st.out"
check "apply of the state NV already holds: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/a0.err"
check "  ... nothing written" "$(tree_sum "$cap" | md5sum)" "$before"

# a desired state with other NV values: refused without --yes, written with
jq '.ports[0].params.enable_sriov = true | .ports[0].params.total_vfs = 32 |
	.ports[0].params.cqe_compress_type = "aggressive" | .ports[0].params.max_sfs = 2' \
	"$tmp/st.out" >"$tmp/want.json"
run a1 --sysroot "$cap" apply "$tmp/want.json"
check "apply of other NV values without --yes: exit 2" "$rc" 2
grep -q "params.enable_sriov on .*stored in firmware NV" "$tmp/a1.err" && ok "  ... saying NV" ||
	bad "  apply refusal: $(cat "$tmp/a1.err")"
check "  ... nothing written" "$(tree_sum "$cap" | md5sum)" "$before"
# (the state is of one port: the captured system's other port differs too)
run df -j diff "$cap" "$tmp/want.json"
check "diff against it: exit 1 (they differ)" "$rc" 1
check "  ... the stored values differ, old -> new" \
	"$(jq -c '[.differences[] | select(.pci_address == "0000:3b:00.0") | [.setting, .old, .new]]' "$tmp/df.out")" \
	'[["params.enable_sriov",false,true],["params.total_vfs",16,32],["params.cqe_compress_type","balanced","aggressive"],["params.max_sfs",4,2]]'
run a2 --sysroot "$cap" apply "$tmp/want.json" --yes
check "apply --yes: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/a2.err"
check "  ... NV holds the desired state" "$(nv)" '[["enable_sriov",true],["total_vfs",32],["cqe_compress_type","aggressive"]]'
check "  ... and the uncatalogued one" "$(sfs)" '[["firmware-reset",2]]'
run df2 -j diff "$cap" "$tmp/want.json"
check "diff after apply: the port matches" \
	"$(jq -c '[.differences[] | select(.pci_address == "0000:3b:00.0")]' "$tmp/df2.out")" '[]'


# a state from before issue 27: no permanent knob, no params_applies
jq 'del(.ports[0].params.enable_sriov, .ports[0].params.total_vfs, .ports[0].params.cqe_compress_type,
	.ports[0].params.max_sfs, .ports[0].params_applies)' \
	"$tmp/st.out" >"$tmp/old.json"
before=$(tree_sum "$cap" | md5sum)
run a3 --sysroot "$cap" apply "$tmp/old.json"
check "apply of a state without the permanent knobs: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/a3.err"
check "  ... NV untouched" "$(nv)" '[["enable_sriov",true],["total_vfs",32],["cqe_compress_type","aggressive"]]'

# an uncatalogued one is typed by the device's type: a word for a u32 is
# refused in the plan, nothing written
jq '.ports[0].params.max_sfs = "many"' "$tmp/st.out" >"$tmp/badsfs.json"
run a5 --sysroot "$cap" apply "$tmp/badsfs.json" --yes
check "apply of max_sfs \"many\" (a u32 on the device): exit 2" "$rc" 2
check "  ... nothing written" "$(sfs)" '[["firmware-reset",2]]'

# a name the catalogue lacks is one only where params_applies says so:
# else it is no knob, found in the file with its path
jq 'del(.ports[0].params_applies.max_sfs)' "$tmp/st.out" >"$tmp/nomark.json"
run a6 --sysroot "$cap" apply "$tmp/nomark.json" --yes
check "apply of max_sfs that params_applies does not name: exit 2" "$rc" 2
grep -qF "ports[0].params.max_sfs: no knob 'max_sfs'" "$tmp/a6.err" && ok "  ... naming its path" ||
	bad "  unmarked: $(cat "$tmp/a6.err")"

# params_applies is checked, not trusted
jq '.ports[0].params_applies.total_vfs = "soon"' "$tmp/st.out" >"$tmp/badap.json"
run a4 --sysroot "$cap" apply "$tmp/badap.json" --check
check "a bad params_applies: exit 2" "$rc" 2
finish
