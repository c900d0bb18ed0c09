#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Ansible module contrib/ansible/library/mlxcli_apply.py (issue 19), run
# by ansible-core's ansible-playbook against localhost (connection local)
# with sysroot a writable copy of the cx5-ofed sample host:
#  - its documentation parses (ansible-doc), the example play's syntax too;
#  - check mode (--check, and with --diff) reports changed and the planned
#    changes (the differences), and writes nothing;
#  - a first apply changes (device limits it to one port), a second one
#    does not ("changed": false), the host then has the document's state;
#  - a bad profile (inline content) fails the task with mlxcli's message and
#    its exit status, nothing written.
# Ansible's temporary and home directories are the test's own, so that it
# runs as any user.
set -u
. "$(dirname "$0")/lib.sh"
need ansible-playbook ansible-doc jq

HOME=$tmp/home
mkdir -p "$HOME"
: >"$tmp/ansible.cfg"
ANSIBLE_CONFIG=$tmp/ansible.cfg
ANSIBLE_LIBRARY=$TOP_SRCDIR/contrib/ansible/library
ANSIBLE_LOCAL_TEMP=$tmp/ansible-local
ANSIBLE_REMOTE_TEMP=$tmp/ansible-remote
# the results as JSON with ansible-core alone (no ansible.posix collection)
ANSIBLE_CALLBACK_PLUGINS=$TOP_SRCDIR/tests/cli/ansible-callbacks
ANSIBLE_STDOUT_CALLBACK=mlxcli_test_json
ANSIBLE_NOCOLOR=1
ANSIBLE_RETRY_FILES_ENABLED=0
ANSIBLE_PYTHON_INTERPRETER=$(command -v python3)
export HOME ANSIBLE_CONFIG ANSIBLE_CALLBACK_PLUGINS ANSIBLE_LIBRARY ANSIBLE_LOCAL_TEMP ANSIBLE_REMOTE_TEMP \
	ANSIBLE_STDOUT_CALLBACK ANSIBLE_NOCOLOR ANSIBLE_RETRY_FILES_ENABLED ANSIBLE_PYTHON_INTERPRETER

ansible-doc -t module mlxcli_apply >"$tmp/doc.txt" 2>&1
check "ansible-doc: the documentation parses" "$?" 0

ansible-playbook --syntax-check -i localhost, "$TOP_SRCDIR/contrib/ansible/roce-lossless.yml" >"$tmp/syn.txt" 2>&1
check "the example play: syntax" "$?" 0

host=$tmp/host
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$host" && chmod -R u+w "$host"
profile=$TOP_SRCDIR/contrib/state/roce-lossless.json
# play FILE [ansible-playbook options]: the tasks' results in $tmp/FILE.json
play() {
	f=$1
	shift
	ansible-playbook -i localhost, -c local "$@" "$tmp/$f.yml" >"$tmp/$f.json" 2>"$tmp/$f.err"
	prc=$?
	# a play that failed says why: ansible-playbook's stderr, each task's msg
	if [ "$prc" -ne 0 ]; then
		echo "ansible-playbook $f (exit $prc):"
		cat "$tmp/$f.err"
		jq -r '.plays[]?.tasks[]?.hosts.localhost | "  task: \(.msg // "") \(.module_stderr // "")"' \
			"$tmp/$f.json" 2>/dev/null || head -c 2000 "$tmp/$f.json"
	fi
}
task() { jq -c ".plays[0].tasks[$1].hosts.localhost | $2" "$tmp/$3.json"; }

cat >"$tmp/apply.yml" <<Y
- hosts: localhost
  gather_facts: false
  tasks:
    - mlxcli_apply: {src: "$profile", sysroot: "$host", device: enp94s0f0np0, binary: "$MLXCLI"}
    - mlxcli_apply: {src: "$profile", sysroot: "$host", binary: "$MLXCLI"}
    - mlxcli_apply: {src: "$profile", sysroot: "$host", binary: "$MLXCLI"}
Y

# ---- check mode, diff mode: the plan, nothing written
play apply --check --diff
check "check mode: the playbook succeeds" "$prc" 0
check "check mode: changed, the differences of both ports" \
	"$(task 1 '[.changed, [.differences[] | [.netdev, .setting, .old, .new]]]' apply)" \
	'[true,[["enp94s0f0np0","pfc.enabled_priorities.6",true,false],["enp94s0f1np1","pfc.enabled_priorities.6",true,false]]]'
check "check mode: the diff Ansible shows" "$(task 1 '.diff | [.before, .after]' apply)" \
	'["0000:5e:00.0 enp94s0f0np0 pfc.enabled_priorities.6 = true\n0000:5e:00.1 enp94s0f1np1 pfc.enabled_priorities.6 = true\n","0000:5e:00.0 enp94s0f0np0 pfc.enabled_priorities.6 = false\n0000:5e:00.1 enp94s0f1np1 pfc.enabled_priorities.6 = false\n"]'
"$MLXCLI" diff "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$host" >"$tmp/d.out" 2>&1
check "check mode wrote nothing" "$?" 0

play apply --check
check "check mode, no diff: changed, the planned changes" \
	"$(task 1 '[.changed, [.changes[] | [.netdev, .setting, .old, .new]]]' apply)" \
	'[true,[["enp94s0f0np0","pfc",[3,6],[3]],["enp94s0f1np1","pfc",[3,6],[3]]]]'
"$MLXCLI" diff "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$host" >"$tmp/d.out" 2>&1
check "check mode, no diff: wrote nothing" "$?" 0

# ---- apply: one port, then the rest, then nothing
play apply
check "apply: the playbook succeeds" "$prc" 0
check "apply -d: changed, its port only" \
	"$(task 0 '[.changed, [.changes[] | [.netdev, .setting, .old, .new]]]' apply)" \
	'[true,[["enp94s0f0np0","pfc",[3,6],[3]]]]'
check "apply: changed, the other port" \
	"$(task 1 '[.changed, [.changes[] | [.netdev, .setting, .old, .new]]]' apply)" \
	'[true,[["enp94s0f1np1","pfc",[3,6],[3]]]]'
check "second apply: unchanged" "$(task 2 '[.changed, .changes]' apply)" '[false,[]]'
check "the host has the profile's PFC" \
	"$("$MLXCLI" --sysroot "$host" -j state | jq -c '[.ports[].pfc.enabled_priorities]')" '[[3],[3]]'
check "play recap: 2 changed" "$(jq -c '.stats.localhost | [.ok, .changed, .failures]' "$tmp/apply.json")" '[3,2,0]'

# ---- a bad profile, inline: the task fails with mlxcli's message
cp -a "$host" "$tmp/before"
cat >"$tmp/bad.yml" <<Y
- hosts: localhost
  gather_facts: false
  tasks:
    - mlxcli_apply:
        sysroot: "$host"
        binary: "$MLXCLI"
        content:
          ports:
            - match: {product: ConnectX-5}
              pfc: {enabled_priorities: [9]}
Y
play bad
check "bad profile: the playbook fails" "$prc" 2
check "bad profile: failed, mlxcli's exit status" "$(task 0 '[.failed, .rc]' bad)" '[true,2]'
case $(task 0 .msg bad) in
*"ports[0].pfc.enabled_priorities[0]: 9 is out of range (0-7); nothing was changed"*)
	ok "bad profile: the message is mlxcli's" ;;
*) bad "bad profile: message $(task 0 .msg bad)" ;;
esac
"$MLXCLI" diff "$tmp/before" "$host" >"$tmp/d.out" 2>&1
check "bad profile: nothing written" "$?" 0

# ---- a numvfs change that takes VFs away (4 -> 2): refused unless
# allow_vf_loss (mlxcli's --yes); apply runs unattended and asks nothing
vfs_play() {
	cat >"$tmp/vfs.yml" <<Y
- hosts: localhost
  gather_facts: false
  tasks:
    - mlxcli_apply:
        sysroot: "$host"
        binary: "$MLXCLI"
        allow_vf_loss: $1
        content: {ports: [{pci_address: "0000:5e:00.0", sriov: {num_vfs: 2}}]}
Y
	play vfs
}
vfs_play false
check "numvfs 4 -> 2: the task fails, mlxcli's exit 2" "$prc:$(task 0 '[.failed, .rc]' vfs)" '2:[true,2]'
check "numvfs 4 -> 2 refused: nothing written" \
	"$("$MLXCLI" --sysroot "$host" -j state | jq -c '.ports[0].sriov.num_vfs')" 4
vfs_play true
check "numvfs 4 -> 2 with allow_vf_loss: changed" "$prc:$(task 0 .changed vfs)" '0:true'
check "numvfs 4 -> 2 with allow_vf_loss: written" \
	"$("$MLXCLI" --sysroot "$host" -j state | jq -c '.ports[0].sriov.num_vfs')" 2
finish
