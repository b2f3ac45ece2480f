"""`reacthuman launch FILE [name:=value ...]`: start a node graph from a launch file, one process per node.

This is not a launch system: it reads the YAML graph (reacthuman.launching.launch_file), starts each node with its
parameters and remappings, prefixes its log lines with the node's name, stops every node on Ctrl-C or
SIGTERM, and ends the run with a non-zero status when a node dies. A node marked `respawn: true` that is
stopped from outside (the eval restarts the body between episodes) is started again instead.
"""

from __future__ import annotations

import argparse
import importlib.util
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from importlib.metadata import entry_points
from pathlib import Path

from reacthuman.launching.launch_file import LaunchFileError, NodeSpec, load

STOP_GRACE_S = 5.0
PR_SET_PDEATHSIG = 1
POLL_S = 0.05


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Runs in a child before exec: when its parent dies (even by SIGKILL), the kernel sends it `sig`."""
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, sig)


def node_dies_with_launcher() -> None:
    """A node gets SIGKILL when its launcher dies: a launcher that stops normally has already stopped its
    nodes (SIGINT, SIGTERM, SIGKILL), so this only happens when the launcher itself was killed, and then a
    node shutting down on SIGTERM could deadlock in rclpy's shutdown and live on as an orphan (seen)."""
    die_with_parent(signal.SIGKILL)


def resolve_launch_file(name: str) -> Path:
    """A path, or a file name looked up in the installed share/reacthuman/launch and the source tree."""
    candidates = [
        Path(name),
        Path(sys.prefix) / "share" / "reacthuman" / "launch" / name,
        Path(__file__).resolve().parents[2] / "launch" / name,
    ]
    for c in candidates:
        if c.is_file():
            return c
    raise LaunchFileError(f"launch file not found: {name}")


def node_command(node: NodeSpec) -> list[str]:
    scripts = {ep.name: ep for ep in entry_points(group="console_scripts")}
    if node.executable in scripts:
        module, func = scripts[node.executable].value.split(":")
    elif node.package == "reacthuman" and importlib.util.find_spec(f"reacthuman.nodes.{node.executable}") is not None:
        # a node of the source tree its (editable) install predates: setup.py names it, the entry point is not there yet
        module, func = f"reacthuman.nodes.{node.executable}", "main"
    else:
        raise LaunchFileError(f"node '{node.name}': no executable '{node.executable}' in package '{node.package}'")
    code = f"import sys; from {module} import {func} as m; sys.exit(m())"
    return [sys.executable, "-c", code, *node.ros_args()]


class Graph:
    """The running processes of one launch."""

    def __init__(self, nodes: list[NodeSpec], env: dict[str, str]) -> None:
        self.nodes = nodes
        self.env = env
        self.procs: dict[str, subprocess.Popen] = {}
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for node in self.nodes:
            self._spawn(node)

    def _spawn(self, node: NodeSpec) -> None:
        proc = subprocess.Popen(
            node_command(node),
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            text=True,
            bufsize=1,
            preexec_fn=node_dies_with_launcher,
        )
        self.procs[node.name] = proc
        t = threading.Thread(target=_pump, args=(node.name, proc), daemon=True)
        t.start()
        self._threads.append(t)
        _say(f"started '{node.name}' ({node.executable}, pid {proc.pid})")

    def first_exit(self) -> tuple[NodeSpec, int] | None:
        """The first node that exited and is not respawned. A `respawn: true` node that was stopped (status 0,
        or a signal) is started again; one that failed (a non-zero status) still ends the graph, so a broken
        node is reported at once instead of crash-looping."""
        for node in self.nodes:
            code = self.procs[node.name].poll()
            if code is not None and node.respawn and code <= 0:
                _say(f"'{node.name}' stopped (status {code}); respawning it")
                self._spawn(node)
            elif code is not None:
                return node, code
        return None

    def stop(self) -> None:
        alive = [p for p in self.procs.values() if p.poll() is None]
        for sig, grace in ((signal.SIGINT, STOP_GRACE_S), (signal.SIGTERM, 3.0), (signal.SIGKILL, 2.0)):
            for p in alive:
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + grace
            while time.monotonic() < deadline and any(p.poll() is None for p in alive):
                time.sleep(POLL_S)
            alive = [p for p in alive if p.poll() is None]
            if not alive:
                break
            names = ", ".join(n for n, p in self.procs.items() if p in alive)
            _say(f"{len(alive)} node(s) ignored {sig.name} ({names}); escalating")
        for t in self._threads:
            t.join(timeout=1.0)


def _pump(name: str, proc: subprocess.Popen) -> None:
    for line in proc.stdout:
        sys.stdout.write(f"[{name}] {line}")
        sys.stdout.flush()


def _say(text: str) -> None:
    sys.stdout.write(f"[launch] {text}\n")
    sys.stdout.flush()


def graph_env(domain_id: int | None) -> dict[str, str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
    if domain_id is not None:
        env["ROS_DOMAIN_ID"] = str(domain_id)
    return env


def run_graph(nodes: list[NodeSpec], env: dict[str, str], duration_s: float | None = None) -> int:
    """Run until a signal, a node's exit, or duration_s. 0 on a clean stop, else the failing status."""
    # A plain flag: a handler that takes a lock (Event.set) can deadlock when a second signal lands while
    # the main thread holds that lock.
    stop = {"requested": False}
    previous = {
        s: signal.signal(s, lambda *_: stop.__setitem__("requested", True)) for s in (signal.SIGINT, signal.SIGTERM)
    }
    graph = Graph(nodes, env)
    status = 0
    try:
        graph.start()
        started = time.monotonic()
        while not stop["requested"]:
            exited = graph.first_exit()
            if exited:
                node, code = exited
                if node.shutdown_on_exit and code == 0:
                    _say(f"'{node.name}' finished; shutting down")
                else:
                    _say(f"node '{node.name}' died with exit code {code}; stopping the graph")
                    status = code if code > 0 else 1
                break
            if duration_s is not None and time.monotonic() - started >= duration_s:
                break
            time.sleep(POLL_S)
    finally:
        graph.stop()
        for s, handler in previous.items():
            signal.signal(s, handler)
    _say("all nodes stopped" + (f" (status {status})" if status else ""))
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="reacthuman launch", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="launch file (.launch.yaml, or a .launch.py naming its LAUNCH_YAML)")
    parser.add_argument("overrides", nargs="*", metavar="name:=value", help="launch argument values")
    parser.add_argument("--domain-id", type=int, default=None, help="ROS_DOMAIN_ID for every node")
    parser.add_argument("--duration", type=float, default=None, help="stop after this many seconds")
    parser.add_argument("--print", action="store_true", help="print the node commands and exit")
    args = parser.parse_intermixed_args(argv)
    try:
        overrides = dict(_override(o) for o in args.overrides)
        spec = load(resolve_launch_file(args.file), overrides)
        commands = [node_command(n) for n in spec.nodes]
    except LaunchFileError as exc:
        print(f"reacthuman launch: {exc}", file=sys.stderr)
        return 2
    if args.print:
        for node, cmd in zip(spec.nodes, commands):
            print(f"{node.name}: {' '.join(cmd[3:])}")
        return 0
    return run_graph(spec.nodes, graph_env(args.domain_id), args.duration)


def _override(text: str) -> tuple[str, str]:
    if ":=" not in text:
        raise LaunchFileError(f"launch arguments are name:=value, got '{text}'")
    name, value = text.split(":=", 1)
    return name, value


if __name__ == "__main__":
    raise SystemExit(main())
