# SPDX-License-Identifier: GPL-2.0-or-later
# A stdout callback for tests/cli/ansible.sh: the play's task results and
# the recap as one JSON document, in the layout of ansible.posix's json
# callback (plays[].tasks[].hosts.HOST, stats.HOST).  That callback is in
# the ansible.posix collection (Debian's big `ansible` package); the test
# needs only ansible-core, so it brings this one.
from __future__ import annotations

import json

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = '''
name: mlxcli_test_json
type: stdout
short_description: task results as one JSON document (mlxcli's tests)
description:
  - The results of every task of every play and the recap, printed once at
    the end as one JSON document.
'''


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'stdout'
    CALLBACK_NAME = 'mlxcli_test_json'

    def __init__(self):
        super().__init__()
        self.plays = []

    def v2_playbook_on_play_start(self, play):
        self.plays.append({'play': {'name': play.get_name()}, 'tasks': []})

    def v2_playbook_on_task_start(self, task, is_conditional):
        self.plays[-1]['tasks'].append({'task': {'name': task.get_name()}, 'hosts': {}})

    def _record(self, result, **extra):
        # the status is the callback's to say, as ansible.posix.json does
        r = dict(result._result)
        r.update(extra)
        self.plays[-1]['tasks'][-1]['hosts'][result._host.get_name()] = r

    def v2_runner_on_ok(self, result, **kwargs):
        self._record(result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._record(result, failed=True)

    def v2_runner_on_skipped(self, result, **kwargs):
        self._record(result)

    def v2_runner_on_unreachable(self, result):
        self._record(result, unreachable=True)

    def v2_playbook_on_stats(self, stats):
        hosts = sorted(stats.processed.keys())
        doc = {'plays': self.plays, 'stats': {h: stats.summarize(h) for h in hosts}}
        self._display.display(json.dumps(doc, sort_keys=True, default=str))
