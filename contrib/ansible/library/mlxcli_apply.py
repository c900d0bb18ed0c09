#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# An Ansible module over `mlxcli -j apply` (issue 19): mlxcli plans, checks,
# writes and rolls back; this file only maps Ansible's check and diff modes
# onto --check and --diff and mlxcli's JSON onto Ansible's result.

DOCUMENTATION = r'''
---
module: mlxcli_apply
short_description: Make a host's NVIDIA/Mellanox ConnectX ports match a desired state
description:
  - Runs C(mlxcli -j apply) on the managed host with a desired-state document
    (the schema of C(mlxcli state -j), see mlxcli-state(8)), that is QoS
    (trust, dscp2prio, PFC, ETS, buffers) and DCQCN of the ports it names.
  - Idempotent; C(changed) is mlxcli's own C(changed).
  - Check mode runs C(mlxcli apply --check) (nothing is written); diff mode
    adds the settings that differ, as C(mlxcli apply --diff) plans them.
  - A document that is invalid, a plan the device refuses or the QoS lint
    refuses fails the task with mlxcli's message, and nothing is written.
version_added: "0.1.0"
author: mlxcli
options:
  src:
    description:
      - Path on the managed host of the desired-state JSON file, or of a
        directory whose *.json files are applied as one document.
      - Exactly one of I(src) and I(content) is given.
    type: path
  content:
    description:
      - The desired state inline, as a dictionary (written in the playbook's
        YAML) or as a JSON string.
    type: raw
  device:
    description:
      - Only the ports of this device (C(mlxcli -d)), a PCI address, netdev or
        RDMA device. The document's other ports are left alone.
    type: str
  sysroot:
    description:
      - Apply to a captured system in this directory instead of the running
        host (C(mlxcli --sysroot)); for tests.
    type: path
  force:
    description:
      - Apply a plan whose result the QoS lint finds an error in (C(--force)).
    type: bool
    default: false
  allow_vf_loss:
    description:
      - Allow a change of a PF's number of VFs between two non-zero counts,
        which destroys the VFs there are and their settings (C(--yes)).
        Without it such a profile fails the task and nothing is written.
    type: bool
    default: false
  binary:
    description:
      - The mlxcli binary; by default the one in PATH.
    type: path
notes:
  - Needs root on a real host (exit 5 otherwise).
  - Supports check mode and diff mode.
'''

EXAMPLES = r'''
- name: RoCE lossless on priority 3 on every ConnectX-5 PF
  mlxcli_apply:
    content:
      ports:
        - match: {product: ConnectX-5, function: pf}
          trust: dscp
          pfc: {enabled_priorities: [3]}

- name: The fleet's profile, from a file copied to the host
  mlxcli_apply:
    src: /etc/mlxcli/state.d
'''

RETURN = r'''
changes:
  description: The change records C(mlxcli -j apply) prints (pci_address,
    netdev, subsystem, setting, old, new, unit, changed, note), the changed
    ones only; in check mode the planned ones.
  returned: success, unless check mode and diff mode
  type: list
  elements: dict
differences:
  description: The settings that differ between the host and the document
    (pci_address, netdev, setting, old, new), as C(mlxcli -j apply --diff).
  returned: diff mode
  type: list
  elements: dict
rc:
  description: mlxcli's exit status (0 ok, 1 failed or refused by the lint,
    2 bad document or value, 3 no such port, 4 not supported, 5 permission).
  returned: always
  type: int
'''

import json
import os
import tempfile

from ansible.module_utils.basic import AnsibleModule


def diff_text(differences, side):
    # one line per setting, "PCI NETDEV setting = value", the values as JSON
    # so that Ansible's own unified diff of the two texts shows the change
    lines = []
    for d in differences:
        lines.append('%s %s %s = %s' % (d.get('pci_address'), d.get('netdev'),
                                        d.get('setting'), json.dumps(d.get(side))))
    return ''.join(line + '\n' for line in lines)


def run(module, argv):
    rc, out, err = module.run_command(argv)
    if rc != 0:
        msg = err.strip() or ('mlxcli exited %d' % rc)
        module.fail_json(msg=msg, rc=rc, stdout=out, stderr=err, cmd=argv)
    try:
        return json.loads(out)
    except ValueError:
        module.fail_json(msg='mlxcli printed no JSON document', rc=rc,
                         stdout=out, stderr=err, cmd=argv)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            src=dict(type='path'),
            content=dict(type='raw'),
            device=dict(type='str'),
            sysroot=dict(type='path'),
            force=dict(type='bool', default=False),
            allow_vf_loss=dict(type='bool', default=False),
            binary=dict(type='path'),
        ),
        mutually_exclusive=[('src', 'content')],
        required_one_of=[('src', 'content')],
        supports_check_mode=True,
    )
    p = module.params
    binary = p['binary'] or module.get_bin_path('mlxcli', required=True)

    path = p['src']
    if p['content'] is not None:
        text = p['content']
        if not isinstance(text, str):
            text = json.dumps(text)
        fd, path = tempfile.mkstemp(suffix='.json', dir=module.tmpdir)
        with os.fdopen(fd, 'w') as f:
            f.write(text)

    argv = [binary, '-j']
    if p['sysroot']:
        argv += ['--sysroot', p['sysroot']]
    if p['device']:
        argv += ['-d', p['device']]
    argv += ['apply', path]
    if p['force']:
        argv.append('--force')
    if p['allow_vf_loss']:
        argv.append('--yes')

    result = dict(changed=False, rc=0)
    if module._diff:
        # --diff plans only (it implies --check); the apply follows unless
        # this is check mode
        planned = run(module, argv + ['--diff'])
        result['changed'] = planned.get('changed', False)
        result['differences'] = planned.get('differences', [])
        result['diff'] = dict(before_header='current', after_header='planned',
                              before=diff_text(result['differences'], 'old'),
                              after=diff_text(result['differences'], 'new'))
        if module.check_mode or not result['changed']:
            module.exit_json(**result)
    applied = run(module, argv + (['--check'] if module.check_mode else []))
    result['changed'] = applied.get('changed', False)
    result['changes'] = applied.get('changes', [])
    module.exit_json(**result)


if __name__ == '__main__':
    main()
