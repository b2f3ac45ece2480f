"""ReactHuman: a physics-grounded benchmark of reactive decisions by multimodal LLMs driving a Unitree G1.

This package is the ROS-free core library: scene generation, plan types, the action classifier, metrics,
model clients. Nothing under `reacthuman/` imports rclpy; the ROS 2 nodes live in `reacthuman.nodes`
(folder `nodes/`) and the simulator adapters in `reacthuman.sim_bridge` (folder `sim_bridge/`).
"""

__version__ = "0.1.0"
