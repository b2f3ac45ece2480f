"""`reacthuman launch`: the launch files of launch/ read (`launch_file.py`) and their node graph started, one process
per node (`launcher.py`)."""
