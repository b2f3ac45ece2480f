"""Evaluation runs: the whole graph over models x scenes, resumable, recorded as rosbag2, replayable."""
