"""PhysMent: a model must discover what it needs by acting on a MuJoCo simulation through tools before it
answers. See physment/README.md; the command line is `physment` (physment.cli:main)."""
