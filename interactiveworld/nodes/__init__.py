"""InteractiveWorld's ROS 2 nodes, one per file, on the suite's node runtime (`reacthuman.nodes.runtime`) and
`interactiveworld.ros_contract`'s contracts: the world (the simulator), the simulated human, the assistant, the judge
and a rosbag2 recorder. Each is configured by ROS parameters (declared with descriptions, validated) and
builds what it needs from them; `interactiveworld.ros_graph` composes them in one process or runs one alone."""
