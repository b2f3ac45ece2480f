"""InteractiveWorld: a disembodied assistant guides a simulated human in a MuJoCo apartment; success is
read from the final simulator state. ROS-free core; the ReactHuman package is used only for model access."""

from reacthuman.core.headless import use_egl_when_headless

use_egl_when_headless()  # before the world's modules import MuJoCo

__version__ = "0.1.0"
