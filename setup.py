"""The ROS 2 package `reacthuman` (ament_python). `nodes/` and `sim_bridge/` are installed as the
subpackages reacthuman.nodes and reacthuman.sim_bridge, so a reader finds them at the top of the tree."""

from glob import glob
from pathlib import Path

from setuptools import find_packages, setup

PACKAGE = "reacthuman"

NODES = ["scene_generator", "body", "spine", "brain", "policy", "scorer", "episode_manager", "robot_bridge"]
INTERACTIVEWORLD_NODES = ["world", "human", "assistant", "judge", "recorder"]


def _requirements(name: str) -> list[str]:
    return [
        line.strip()
        for line in Path(__file__).with_name(name).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]


# The light install's requirements (decide on an exported dataset, no simulator): one list, read here and by its test.
CLIENT = _requirements("requirements-client.txt")
# The fast test layer's install: the light install plus what its tests import (docs/testing.md).
TEST_FAST = CLIENT + _requirements("requirements-fast.txt")

setup(
    name=PACKAGE,
    version="0.1.0",
    packages=find_packages(
        include=["reacthuman", "reacthuman.*", "physment", "physment.*", "interactiveworld", "interactiveworld.*"]
    )
    + ["reacthuman.nodes", "reacthuman.sim_bridge"],
    package_dir={"reacthuman.nodes": "nodes", "reacthuman.sim_bridge": "sim_bridge"},
    include_package_data=True,
    package_data={
        "physment": ["scenes/*/*.json", "scenes/*/*.xml", "README.md", "authors/*.yaml"],
        "interactiveworld": ["tasks/*.json", "bench/templates.yaml", "bench/templates.schema.json", "README.md"],
    },
    data_files=[
        ("share/ament_index/resource_index/packages", [f"resource/{PACKAGE}"]),
        (f"share/{PACKAGE}", ["package.xml"]),
        (f"share/{PACKAGE}/launch", glob("launch/*.launch.*")),
        (f"share/{PACKAGE}/config", glob("config/*.yaml")),
    ],
    install_requires=["setuptools"],
    extras_require={"client": CLIENT, "test-fast": TEST_FAST},
    zip_safe=False,
    description="Physics-grounded evaluation of multimodal LLMs as the brain of a Unitree G1",
    license="Apache-2.0",
    entry_points={
        "console_scripts": [f"{n}_node = reacthuman.nodes.{n}_node:main" for n in NODES]
        + [f"interactiveworld_{n}_node = interactiveworld.nodes.{n}_node:main" for n in INTERACTIVEWORLD_NODES]
        + [
            "reacthuman = reacthuman.cli:main",
            "physment = physment.cli:main",
            "physment-lab-node = physment.lab_node:main",
            "interactiveworld = interactiveworld.cli:main",
        ],
    },
)
