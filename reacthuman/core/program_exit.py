"""How a `reacthuman` command ends as a program: its exit handlers run, then the process ends at once.

A command that used rclpy (eval's action clients, one DDS participant per graph) was seen once, in a test run of
`reacthuman eval`, to print its last line and then never exit (killed 20 min later): the interpreter's own
finalization (waiting for threads, then the middleware's destructors) is where such a process can hang with all its
work written. So a command run as a program runs its atexit handlers (servers it started are shut down, logs
flushed) under a watchdog, flushes its output and ends with `os._exit`; a handler that hangs past the grace time
has every thread's traceback printed and the process ends with status 1."""

from __future__ import annotations

import atexit
import faulthandler
import os
import sys
from typing import NoReturn

EXIT_GRACE_S = 60.0


def exit_program(code: int, grace_s: float = EXIT_GRACE_S) -> NoReturn:
    """End this process with `code` after its atexit handlers (at most `grace_s` of them, then status 1)."""
    sys.stdout.flush()
    sys.stderr.flush()
    faulthandler.dump_traceback_later(grace_s, exit=True)
    atexit._run_exitfuncs()
    faulthandler.cancel_dump_traceback_later()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
