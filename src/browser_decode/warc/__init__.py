"""Re-decode WARC archives: the building blocks of ``browser-decode warc``, for clusters.

The reader is pure Python (``br`` payloads need ``pip install -e '.[warc]'``, which adds
brotli). See docs/warc.md.

* :func:`read_pages` -- the decoded HTML (and XML) pages of one file (or byte range);
* :func:`plan` (or :func:`index` and :func:`split`) -- cut big files into :class:`Task` ranges;
* :func:`run_task` -- one task's JSON Lines (or rows) and :class:`Summary`;
* :func:`run` -- all tasks on the cores of this machine, in order.
"""

from __future__ import annotations

from ._archive import FIELDS, MissingExtra, Summary, Task, html_to_text, index, read_pages
from ._run import TaskResult, plan, run, run_task, split, to_json_line

__all__ = [
    "FIELDS",
    "MissingExtra",
    "Summary",
    "Task",
    "TaskResult",
    "html_to_text",
    "index",
    "plan",
    "read_pages",
    "run",
    "run_task",
    "split",
    "to_json_line",
]
