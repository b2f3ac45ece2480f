"""`ros2 launch reacthuman eval.launch.py [model:=NAME ...]` on a full ROS 2 install.

The graph itself is listed once, in eval.launch.yaml beside this file; this file only includes it, so the
standard launcher and the pip-only `reacthuman launch` start exactly the same nodes.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import AnyLaunchDescriptionSource

LAUNCH_YAML = "eval.launch.yaml"


def generate_launch_description() -> LaunchDescription:
    yaml_path = os.path.join(get_package_share_directory("reacthuman"), "launch", LAUNCH_YAML)
    return LaunchDescription([IncludeLaunchDescription(AnyLaunchDescriptionSource(yaml_path))])
