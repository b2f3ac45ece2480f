"""Episode recording as standard rosbag2 folders (metadata.yaml + MCAP), written and read with `rosbags`."""
