"""ROS 2 nodes of the ReactHuman graph: one thin node per module (parameters, endpoints, timers) over the
ROS-free core library in `reacthuman`. Installed as the package `reacthuman.nodes`."""
