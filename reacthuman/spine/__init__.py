"""The spine's ROS-free core: walking policy, arm IK, the Spine that combines them, and command safety."""
