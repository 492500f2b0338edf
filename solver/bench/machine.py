"""The description of the machine a benchmark ran on, for every benchmark's report.

>>> "cores" in machine()
True
"""

from __future__ import annotations

import os
import platform


def machine() -> str:
    """The machine's description: CPU, cores, Python, system."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.machine()}"
