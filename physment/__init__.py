"""PhysMent: a model must discover what it needs by acting on a MuJoCo simulation through tools before it
answers. See physment/README.md; the command line is `physment` (physment.cli:main)."""

# The reference agents of `physment run --models` (name -> what it does); every other name is a model. Here,
# not beside OracleAgent, so that the command line's `--help` and argument checks do not load MuJoCo.
REFERENCE_AGENTS = {"oracle": "replays each scene's reference solution"}
