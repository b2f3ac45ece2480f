"""InteractiveWorld: a disembodied assistant guides a simulated human in a MuJoCo apartment; success is
read from the final simulator state. ROS-free core; the ReactHuman package is used only for model access."""

import os

# MuJoCo picks its GL backend when a renderer is first made; headless EGL is what works on these machines.
os.environ.setdefault("MUJOCO_GL", "egl")

__version__ = "0.1.0"
