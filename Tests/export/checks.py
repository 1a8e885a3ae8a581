"""What the export and delivery test scripts share: a tally of checks and a polling wait.

    sys.path.insert(0, <this folder>); from checks import Report, wait_for
"""

from __future__ import annotations

import time


class Report:
    """Counts checks, prints each failure at once, and ends with `NAME: N passed, M failed`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.passed = self.failed = 0

    def check(self, ok: bool, message) -> bool:
        """Counts one check; `message` (text or a zero-argument callable) is printed when it fails."""
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL:", message() if callable(message) else message)
        return ok

    def finish(self) -> int:
        """Prints the last line; the exit code, 0 only when nothing failed."""
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1


def wait_for(condition, seconds: float = 20) -> bool:
    """Whether `condition()` holds within `seconds`, asked every 50 ms."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()
