"""A second run of the pipeline kept only where it verifies more targets than the first.

The second run writes into a hidden folder beside the first's output; when it verifies more
targets, its files replace the first's (each one moved atomically, the report's paths rewritten),
and otherwise the folder is removed and the first run's output stays as it was.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from deploy.errors import DeployError
from deploy.exporter.report import write_report


def verified(result) -> int:
    """How many targets a pipeline run wrote and verified."""
    return sum(1 for a in result.artifacts.values() if a.ok)


def better_of(first, run: Callable[[Path], object]):
    """``first`` (an ExportResult) or ``run(folder)``'s result moved into first's output folder,
    whichever verifies more targets."""
    out_dir = Path(first.out_dir)
    scratch = out_dir.parent / f".{out_dir.name}.retry"
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        second = run(scratch)
    except DeployError:
        second = None
    if second is None or verified(second) <= verified(first):
        shutil.rmtree(scratch, ignore_errors=True)
        return first
    for artifact in first.artifacts.values():
        if artifact.path is not None and not (scratch / Path(artifact.path).name).exists():
            _remove(Path(artifact.path))  # the first run's artifact the second did not write
    for entry in sorted(scratch.iterdir()):
        target = out_dir / entry.name
        if entry.is_dir() and target.exists():
            _remove(target)
        os.replace(entry, target)
    shutil.rmtree(scratch, ignore_errors=True)
    second.report = json.loads(json.dumps(second.report, default=str).replace(str(scratch), str(out_dir)))
    for artifact in second.artifacts.values():
        if artifact.path is not None:
            artifact.path = out_dir / Path(artifact.path).relative_to(scratch)
    second.out_dir = out_dir
    write_report(second.report, out_dir)
    return second


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
