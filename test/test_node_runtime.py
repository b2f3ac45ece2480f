"""The shared node main (reacthuman.nodes.runtime.run) in a real process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from reacthuman.nodes.runtime import EXIT_GRACE_S

# A node whose clean-up blocks in C while holding the GIL (as a DDS entity's destruction did once on CI): no
# Python thread can run, so only the kernel can end it.
_STUCK_NODE = """
import ctypes
from rclpy.node import Node
from reacthuman.nodes.runtime import run

class Stuck(Node):
    def __init__(self):
        super().__init__("stuck_on_shutdown")
        self.create_timer(0.05, lambda: print("spinning", flush=True))

    def destroy_node(self):
        ctypes.PyDLL(None).sleep(600)  # PyDLL keeps the GIL across the call

run(Stuck)
"""


def _sigterm_when_ready(script: str, ready_line: str, ros_domain_id: int) -> tuple[int, float]:
    """Run a node script, SIGTERM it once it prints `ready_line`: its exit code and seconds to exit."""
    env = dict(os.environ, ROS_DOMAIN_ID=str(ros_domain_id), ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST")
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == ready_line
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=EXIT_GRACE_S + 30)
    finally:
        proc.kill()
    return code, time.monotonic() - started


def test_a_node_whose_clean_up_holds_the_gil_is_ended_by_the_kernel_after_the_grace_period(ros_domain_id):
    code, took_s = _sigterm_when_ready(_STUCK_NODE, "spinning", ros_domain_id)
    assert code == -signal.SIGALRM, code
    assert EXIT_GRACE_S - 1 <= took_s <= EXIT_GRACE_S + 15, took_s


# A node busy in a long callback when SIGTERM arrives: the signal must end it at once (the handler runs in Python
# between bytecodes and interrupts the sleep), not once the callback returns.
_BUSY_NODE = """
import time
from rclpy.node import Node
from reacthuman.nodes.runtime import run

class Busy(Node):
    def __init__(self):
        super().__init__("busy_in_a_callback")
        self.create_timer(0.05, self.work)

    def work(self):
        print("working", flush=True)
        time.sleep(120)

run(Busy)
"""


def test_sigterm_ends_a_node_busy_in_a_long_callback_at_once(ros_domain_id):
    code, took_s = _sigterm_when_ready(_BUSY_NODE, "working", ros_domain_id)
    assert code == 0, code
    assert took_s < EXIT_GRACE_S, f"the node waited for its callback to end ({took_s:.1f} s)"


def test_a_parameter_set_after_start_is_refused_with_the_reason_and_the_value_kept(ros_domain_id):
    # Nodes build what a parameter configures once, at start: a later set must not report a change that
    # never happens. rclpy's own parameters (use_sim_time) stay settable.
    import rclpy
    from rclpy.parameter import Parameter

    from reacthuman.ros_contract import NodeContract
    from reacthuman.nodes.runtime import ContractNode, positive

    rclpy.init(domain_id=ros_domain_id)
    try:

        class Node(ContractNode):
            def __init__(self) -> None:
                super().__init__(NodeContract("read_once", "none"))
                self.timeout_s = self.declare("timeout_s", 5.0, "seconds", positive)

        node = Node()
        (result,) = node.set_parameters([Parameter("timeout_s", value=7.0)])
        assert not result.successful
        assert result.reason == "parameter 'timeout_s' is read once at start: restart the node with -p timeout_s:=VALUE"
        assert node.get_parameter("timeout_s").value == 5.0
        assert node.timeout_s == 5.0
        assert node.set_parameters([Parameter("use_sim_time", value=True)])[0].successful
        node.destroy_node()
    finally:
        rclpy.shutdown()
