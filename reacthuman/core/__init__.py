"""The suite core shared by ReactHuman, PhysMent and InteractiveWorld: small, ROS-free building blocks
(atomic writes, reply-JSON extraction, config validation, physical constants) that every system uses
instead of keeping its own copy."""
