"""Simulator adapters (Genesis, MuJoCo) and the bridge that lets a simulator stand in for the real G1.
Installed as the package `reacthuman.sim_bridge`; ROS-free."""
