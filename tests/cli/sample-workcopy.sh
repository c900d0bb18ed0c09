#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The sample hosts' working copies (mlxcli(8) --sample, mlxcli-devices(8)
# "sample list", "sample reset"):
#   - the first --sample use creates the working copy under $MLXCLI_STATE_DIR,
#     a copy of the pristine tree (same files, same bytes, same links);
#   - a change in the working copy persists across invocations (the next
#     command sees it), for each sample independently;
#   - the pristine tree is never touched (checksums of every file and the
#     list of symlinks before and after the whole test);
#   - `sample reset [NAME]` discards it and the next use is pristine again;
#   - `sample list -j` reports names, default and working-copy state;
#   - a working copy made from an older version of a sample is reported
#     (warning on use, CURRENT no in the list) until `sample reset`.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq

WC=$MLXCLI_STATE_DIR/samples

tree_sum "$MLXCLI_SAMPLES_DIR" >"$tmp/pristine.before"
echo "pristine tree: $(grep -c ' -> ' "$tmp/pristine.before") links, $(grep -vc ' -> ' "$tmp/pristine.before") files"

echo "== sample list before any use"
"$MLXCLI" sample list -j >"$tmp/list.json" || bad "sample list -j failed"
got=$(jq -c '[.samples[] | [.name, .is_default, .working_copy_exists]]' "$tmp/list.json")
want='[["cx5-ofed",true,false],["cx6dx-upstream",false,false]]'
[ "$got" = "$want" ] && ok "sample list: $got" || bad "sample list: $got, want $want"
got=$(jq -r '.samples[0].working_copy' "$tmp/list.json")
[ "$got" = "$WC/cx5-ofed" ] && ok "working copy path $got" || bad "working copy path $got"
[ "$(jq -c '.samples[0] | keys_unsorted' "$tmp/list.json")" = '["name","is_default","working_copy_exists","working_copy_current","working_copy"]' ] ||
	bad "sample list keys differ from mlxcli-devices(8)"
[ -e "$WC" ] && bad "sample list created $WC"
"$MLXCLI" sample list >"$tmp/list.txt" || bad "sample list (text) failed"
grep -q '^cx5-ofed  *yes  *no  *-  ' "$tmp/list.txt" && ok "text: cx5-ofed yes no" || bad "text list: $(cat "$tmp/list.txt")"

echo "== first use creates the working copy"
"$MLXCLI" --sample devices >"$tmp/first.txt" 2>&1 || bad "--sample devices failed"
if [ -d "$WC/cx5-ofed" ]; then
	ok "created $WC/cx5-ofed"
else
	bad "no working copy at $WC/cx5-ofed"
fi
[ -e "$WC/cx6dx-upstream" ] && bad "the other sample was copied too"
tree_sum "$MLXCLI_SAMPLES_DIR/cx5-ofed" >"$tmp/a"
tree_sum "$WC/cx5-ofed" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok "the working copy equals the pristine tree (files and links)" ||
	bad "the working copy differs from the pristine tree: $(diff "$tmp/a" "$tmp/b" | head -5)"
ls -A "$WC" | grep -q 'tmp-' && bad "a temporary copy was left in $WC"
"$MLXCLI" sample list -j | jq -e '.samples[0].working_copy_exists == true and .samples[1].working_copy_exists == false' >/dev/null &&
	ok "sample list: cx5-ofed in use, cx6dx-upstream not" || bad "sample list after use"

echo "== changes persist across invocations"
# change what the next command reads: PF1's link comes up at 25G, PF0's MTU
net=$WC/cx5-ofed/sys/bus/pci/devices/0000:5e:00.1/net/enp94s0f1np1
[ -d "$net" ] || bad "$net missing"
echo up >"$net/operstate"
echo 1 >"$net/carrier"
echo 25000 >"$net/speed"
echo 9000 >"$WC/cx5-ofed/sys/bus/pci/devices/0000:5e:00.0/net/enp94s0f0np0/mtu"
for run in 1 2; do
	"$MLXCLI" --sample -j ports >"$tmp/ports.json" 2>/dev/null
	got=$(jq -c '[.ports[0].mtu, .ports[1].link_state, .ports[1].speed_mbps, .ports[1].carrier]' "$tmp/ports.json")
	[ "$got" = '[9000,"up",25000,true]' ] && ok "invocation $run sees the change: $got" ||
		bad "invocation $run: $got, want [9000,\"up\",25000,true]"
done
"$MLXCLI" --sample ports | grep -q '^enp94s0f1np1 .* up  *25G  *1500 ' && ok "text shows 25G" ||
	bad "text does not show the change"
# the other sample is a separate copy
"$MLXCLI" --sample=cx6dx-upstream -j ports >"$tmp/p6.json" 2>/dev/null
[ -d "$WC/cx6dx-upstream" ] && ok "cx6dx-upstream working copy created" || bad "no cx6dx-upstream working copy"
echo 1234 >"$WC/cx6dx-upstream/sys/bus/pci/devices/0000:3b:00.0/net/enp59s0f0np0/mtu"
[ "$("$MLXCLI" --sample=cx6dx-upstream -j ports | jq '.ports[0].mtu')" = 1234 ] ||
	bad "cx6dx-upstream change not seen"
[ "$("$MLXCLI" --sample -j ports | jq '.ports[0].mtu')" = 9000 ] || bad "cx5-ofed change lost"
# a snapshot of the working copy carries the change
"$MLXCLI" --sample snapshot "$tmp/snap" >/dev/null 2>&1 || bad "snapshot of the working copy failed"
[ "$("$MLXCLI" --sysroot "$tmp/snap" -j ports | jq '.ports[1].speed_mbps')" = 25000 ] &&
	ok "a snapshot of the working copy has the change" || bad "snapshot lacks the change"

echo "== sample reset"
"$MLXCLI" sample reset >"$tmp/reset.out" 2>"$tmp/reset.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/reset.out")" = "reset: cx5-ofed" ] && [ ! -s "$tmp/reset.err" ] &&
	ok "sample reset: exit 0, 'reset: cx5-ofed'" || bad "sample reset: exit $rc $(cat "$tmp/reset.out" "$tmp/reset.err")"
[ -e "$WC/cx5-ofed" ] && bad "reset left $WC/cx5-ofed"
[ -d "$WC/cx6dx-upstream" ] || bad "reset of cx5-ofed removed cx6dx-upstream's copy"
got=$("$MLXCLI" --sample -j ports | jq -c '[.ports[0].mtu, .ports[1].link_state, .ports[1].speed_mbps]')
[ "$got" = '[1500,"down",null]' ] && ok "after reset: pristine again $got" || bad "after reset: $got"
"$MLXCLI" --sample devices >"$tmp/again.txt" 2>&1
cmp -s "$tmp/first.txt" "$tmp/again.txt" && ok "devices after reset = first use" || bad "devices after reset differ"
# reset by name, and of a sample without a working copy
"$MLXCLI" sample reset cx6dx-upstream >/dev/null || bad "sample reset cx6dx-upstream failed"
[ -e "$WC/cx6dx-upstream" ] && bad "reset cx6dx-upstream left its copy"
[ "$("$MLXCLI" --sample=cx6dx-upstream -j ports | jq '.ports[0].mtu')" = 1500 ] || bad "cx6dx-upstream not pristine"
"$MLXCLI" sample reset cx6dx-upstream >/dev/null
"$MLXCLI" sample reset cx6dx-upstream >/dev/null 2>&1 &&
	ok "reset with no working copy: exit 0" || bad "reset with no working copy failed"
"$MLXCLI" -j sample reset | jq -e '.reset == "cx5-ofed"' >/dev/null && ok "sample reset -j" || bad "sample reset -j"
"$MLXCLI" sample reset nosuch >/dev/null 2>&1
[ $? -eq 2 ] && ok "sample reset nosuch: exit 2" || bad "sample reset nosuch"
"$MLXCLI" sample reset .. >/dev/null 2>&1
[ $? -eq 2 ] && [ -d "$MLXCLI_STATE_DIR" ] && ok "sample reset ..: exit 2, state dir kept" || bad "sample reset .."

echo "== a working copy made from an older sample"
# An upgrade brings a newer bundled sample; the user's working copy still
# holds the old one.  Each use says so (the copy is kept: it may hold the
# user's changes) until `sample reset`.
up=$tmp/upgraded
cp -a "$MLXCLI_SAMPLES_DIR" "$up"
(
	MLXCLI_SAMPLES_DIR=$up
	MLXCLI_STATE_DIR=$tmp/state-up
	export MLXCLI_SAMPLES_DIR MLXCLI_STATE_DIR
	"$MLXCLI" --sample devices >/dev/null 2>"$tmp/up0.err" || echo "FAIL: first use"
	[ -s "$tmp/up0.err" ] && echo "FAIL: first use warns: $(cat "$tmp/up0.err")"
	sed -i 's/"content_sha256": "[0-9a-f]*"/"content_sha256": "0000"/' "$up/cx5-ofed/mlxcli-snapshot.json"
	"$MLXCLI" --sample devices >/dev/null 2>"$tmp/up1.err" || echo "FAIL: use after the upgrade"
	grep -q "working copy of sample 'cx5-ofed'.*older" "$tmp/up1.err" ||
		echo "FAIL: no word of the older working copy: $(cat "$tmp/up1.err")"
	grep -q "mlxcli sample reset cx5-ofed" "$tmp/up1.err" || echo "FAIL: no hint to reset"
	cur=$("$MLXCLI" -j sample list | jq -c '[.samples[] | .working_copy_current]')
	[ "$cur" = '[false,null]' ] || echo "FAIL: sample list says current=$cur"
	"$MLXCLI" sample reset cx5-ofed >/dev/null || echo "FAIL: reset"
	"$MLXCLI" --sample devices >/dev/null 2>"$tmp/up2.err"
	[ -s "$tmp/up2.err" ] && echo "FAIL: still warns after reset: $(cat "$tmp/up2.err")"
	cur=$("$MLXCLI" -j sample list | jq -c '[.samples[] | .working_copy_current]')
	[ "$cur" = '[true,null]' ] || echo "FAIL: after reset, sample list says current=$cur"
) >"$tmp/up.out"
if [ -s "$tmp/up.out" ]; then
	bad "older working copy: $(cat "$tmp/up.out")"
else
	ok "an older working copy is reported on use and in sample list, until reset"
fi

echo "== a state directory nobody can write (issue 25)"
# A read-only home (a service user, a read-only root): reads work on a
# temporary working copy, removed on exit; a write still needs the
# working copy and says where it would be and how to move it.
: >"$tmp/afile"
ro=$tmp/afile/state          # mkdir fails (ENOTDIR), for root too
mkdir "$tmp/t"
"$MLXCLI" --sample -j devices >"$tmp/rw.out" 2>/dev/null
MLXCLI_STATE_DIR=$ro TMPDIR=$tmp/t "$MLXCLI" --sample -j devices >"$tmp/ro.out" 2>"$tmp/ro.err"
rc=$?
[ "$rc" -eq 0 ] && cmp -s "$tmp/rw.out" "$tmp/ro.out" && [ ! -s "$tmp/ro.err" ] &&
	ok "unwritable state directory: --sample devices exit 0, the same output, nothing on stderr" ||
	bad "unwritable state directory: devices exit $rc: $(cat "$tmp/ro.err")"
[ -z "$(ls -A "$tmp/t")" ] && ok "the temporary working copy is gone after the command" ||
	bad "left in TMPDIR: $(ls -A "$tmp/t")"
MLXCLI_STATE_DIR=$ro TMPDIR=$tmp/t "$MLXCLI" -v --sample=cx6dx-upstream -j qosconfig dcqcn get -d enp59s0f0np0 >/dev/null 2>"$tmp/ro.err"
rc=$?
[ "$rc" -eq 0 ] && grep -q "info: sample 'cx6dx-upstream': cannot make the working copy in '$ro/samples/cx6dx-upstream' (Not a directory): reading a temporary copy" "$tmp/ro.err" &&
	ok "-v says the reads use a temporary copy, and why" || bad "-v dcqcn get: exit $rc: $(cat "$tmp/ro.err")"
MLXCLI_STATE_DIR=$ro TMPDIR=$tmp/t "$MLXCLI" --sample -d enp94s0f0np0 params set mtu=9000 >"$tmp/ro.out" 2>"$tmp/ro.err"
rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$tmp/ro.out" ] &&
	grep -q "error: cannot make the working copy of sample 'cx5-ofed' in '$ro/samples/cx5-ofed': Not a directory; a write to a sample needs one" "$tmp/ro.err" &&
	grep -q "hint: set MLXCLI_STATE_DIR (or XDG_STATE_HOME) to a directory this user can write" "$tmp/ro.err" &&
	ok "a write: exit 1, the working copy's place named, and how to move it" ||
	bad "params set with an unwritable state dir: exit $rc: $(cat "$tmp/ro.out" "$tmp/ro.err")"
MLXCLI_STATE_DIR=$ro TMPDIR=$tmp/t "$MLXCLI" --sample -d enp94s0f0np0 params set mtu=9000 --dry-run >"$tmp/ro.out" 2>"$tmp/ro.err"
rc=$?
[ "$rc" -eq 0 ] && grep -q "mtu: 1500 -> 9000" "$tmp/ro.out" && ok "a dry run reads a temporary copy" ||
	bad "dry run with an unwritable state dir: exit $rc: $(cat "$tmp/ro.err")"
[ -z "$(ls -A "$tmp/t")" ] || bad "left in TMPDIR after the write: $(ls -A "$tmp/t")"
if [ "$(id -u)" = 0 ]; then
	priv_setup cx5-ofed
	mkdir -m 555 "$PRIV/home"
	as_nobody env -u MLXCLI_STATE_DIR -u XDG_STATE_HOME HOME="$PRIV/home" \
		"$NOBODY_MLXCLI" --sample -j ports >"$tmp/nb.out" 2>"$tmp/nb.err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(jq '.ports | length' "$tmp/nb.out")" = 6 ] &&
		ok "nobody with a read-only HOME: --sample ports exit 0" ||
		bad "nobody, read-only HOME: exit $rc: $(cat "$tmp/nb.err")"
	as_nobody env -u MLXCLI_STATE_DIR -u XDG_STATE_HOME HOME="$PRIV/home" \
		"$NOBODY_MLXCLI" --sample qosconfig dcqcn set rpg_ai_rate 10 -d enp94s0f0np0 >"$tmp/nb.out" 2>"$tmp/nb.err"
	rc=$?
	[ "$rc" -eq 5 ] && grep -q "cannot make the working copy of sample 'cx5-ofed' in '$PRIV/home/.local/state/mlxcli/samples/cx5-ofed': Permission denied" "$tmp/nb.err" &&
		ok "nobody with a read-only HOME: a write exits 5 naming the place" ||
		bad "nobody, read-only HOME, a write: exit $rc: $(cat "$tmp/nb.err")"
else
	echo "  note: not root: the read-only HOME of another user is not tried"
fi

echo "== the pristine tree"
tree_sum "$MLXCLI_SAMPLES_DIR" >"$tmp/pristine.after"
if cmp -s "$tmp/pristine.before" "$tmp/pristine.after"; then
	ok "pristine tree unchanged"
else
	bad "the pristine tree changed:"
	diff "$tmp/pristine.before" "$tmp/pristine.after" | head -20
fi

finish
